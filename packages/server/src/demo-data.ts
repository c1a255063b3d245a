// Demo data for `npm start`: seeded once into a new store so every read route returns rows.
// A fuller catalogue (four games, sales history) is filled in with the market-data routes.

import { placeOrder } from './domain/buy-orders.ts';
import { putAsset, putItem } from './domain/catalog.ts';
import { Tx } from './domain/tx.ts';
import { createUser } from './domain/users.ts';
import type { ServerDeps } from './http/deps.ts';

/** The API keys of the demo accounts, printed at start so a first request can be made. */
export const DEMO_KEYS = { alice: 'demo-alice-api-key', bob: 'demo-bob-api-key', admin: 'demo-admin-api-key' };

export async function seedDemoData(deps: ServerDeps): Promise<void> {
  const now = deps.clock.now();
  const tx = new Tx(deps.store.state);
  createUser(
    tx,
    { name: 'Alice', balance: 250_000, email: 'alice@example.com' },
    DEMO_KEYS.alice,
    '76561198000000001',
    now - 400 * 86400,
  );
  createUser(
    tx,
    { name: 'Bob', balance: 80_000, email: 'bob@example.com' },
    DEMO_KEYS.bob,
    '76561198000000002',
    now - 300 * 86400,
  );
  createUser(
    tx,
    { name: 'Admin', admin: true, email: 'admin@example.com' },
    DEMO_KEYS.admin,
    '76561198000000003',
    now - 500 * 86400,
  );
  const key = putItem(tx, {
    name: 'Mann Co. Supply Crate Key',
    game: 440,
    quality: 'Unique',
    type: 'Tool',
    rarity: 'Unique',
  });
  for (const price of [205, 209, 212])
    putAsset(tx, { owner: '76561198000000002', itemId: key.id, state: 1, price }, now);
  placeOrder(tx, { owner: '76561198000000001', itemId: key.id, price: 195, amount: 3, now });
  await deps.store.append(tx.commit());
}
