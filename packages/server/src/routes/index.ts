// Every implemented operation's handler, by operationId. Operations of the document without a
// handler answer 404 like an unknown route until they are implemented.
import type { Routes } from '../http/context.ts';
import { authRoutes } from './auth.ts';
import { buyOrderRoutes } from './buy-orders.ts';
import { itemRoutes } from './items.ts';
import { marketDataRoutes } from './market-data.ts';

export const routes: Routes = {
  ...authRoutes,
  ...buyOrderRoutes,
  ...itemRoutes,
  ...marketDataRoutes,
};
