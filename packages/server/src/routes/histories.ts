// Histories: balance, purchases, sales, transactions, sales infos and charts. (Stub: handlers are added by operationId as the area is implemented.)
import type { Routes } from '../http/context.ts';

export const historiesRoutes: Routes = {};
