// Every operation's handler, by operationId: `Routes` has a key for each operation of the document,
// so an operation without a handler (or with a misspelled one) fails to compile.
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

const areas = [
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
function assertDisjoint(all: object[]): void {
  const seen = new Set<string>();
  for (const area of all)
    for (const operationId of Object.keys(area)) {
      if (seen.has(operationId)) throw new Error(`Two handlers for ${operationId}`);
      seen.add(operationId);
    }
}

assertDisjoint(areas);

export const routes: Routes = {
  ...authRoutes,
  ...buyOrderRoutes,
  ...itemRoutes,
  ...marketDataRoutes,
  ...inventoryRoutes,
  ...cartRoutes,
  ...depositsRoutes,
  ...tradesRoutes,
  ...historiesRoutes,
  ...accountRoutes,
  ...cashoutsRoutes,
  ...adminRoutes,
  ...supportRoutes,
  ...giveawaysRoutes,
};
