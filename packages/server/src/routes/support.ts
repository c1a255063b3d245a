// Support tickets and messages. (Stub: handlers are added by operationId as the area is implemented.)
import type { Routes } from '../http/context.ts';

export const supportRoutes: Routes = {};
