// Account settings, e-mail change and 2FA. (Stub: handlers are added by operationId as the area is implemented.)
import type { Routes } from '../http/context.ts';

export const accountRoutes: Routes = {};
