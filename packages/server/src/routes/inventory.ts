// Inventory: backpack rows, pricing (and matching into buy orders). (Stub: handlers are added by operationId as the area is implemented.)
import type { Routes } from '../http/context.ts';

export const inventoryRoutes: Routes = {};
