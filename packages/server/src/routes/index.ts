// Every implemented operation's handler, by operationId. Operations of the document without a
// handler answer 404 like an unknown route until they are implemented.
import type { Routes } from '../http/context.ts';
import { accountRoutes } from './account.ts';
import { adminRoutes } from './admin.ts';
import { authRoutes } from './auth.ts';
import { buyOrderRoutes } from './buy-orders.ts';
import { cartRoutes } from './cart.ts';
import { cashoutsRoutes } from './cashouts.ts';
import { depositsRoutes } from './deposits.ts';
import { giveawaysRoutes } from './giveaways.ts';
import { historiesRoutes } from './histories.ts';
import { inventoryRoutes } from './inventory.ts';
import { itemRoutes } from './items.ts';
import { marketDataRoutes } from './market-data.ts';
import { supportRoutes } from './support.ts';
import { tradesRoutes } from './trades.ts';

const areas: Routes[] = [
  authRoutes,
  buyOrderRoutes,
  itemRoutes,
  marketDataRoutes,
  inventoryRoutes,
  cartRoutes,
  depositsRoutes,
  tradesRoutes,
  historiesRoutes,
  accountRoutes,
  cashoutsRoutes,
  adminRoutes,
  supportRoutes,
  giveawaysRoutes,
];

/** Each operationId belongs to one area: a second handler for it is a mistake, not an override. */
function merge(all: Routes[]): Routes {
  const merged: Routes = {};
  for (const area of all)
    for (const [operationId, handler] of Object.entries(area)) {
      if (merged[operationId]) throw new Error(`Two handlers for ${operationId}`);
      merged[operationId] = handler;
    }
  return merged;
}

export const routes: Routes = merge(areas);
