// Deposits and instant sell. (Stub: handlers are added by operationId as the area is implemented.)
import type { Routes } from '../http/context.ts';

export const depositsRoutes: Routes = {};
