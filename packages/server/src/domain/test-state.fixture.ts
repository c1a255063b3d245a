// Small states for the domain's unit tests, built through the engine's own functions so a test
// states only what it is about (an item, a few listings, some sales) and the rest takes defaults.
import { placeOrder } from './buy-orders.ts';
import { type NewAsset, putAsset, putItem } from './catalog.ts';
import type { Asset, Item, Sale, User } from './state.ts';
import { emptyState } from './state.ts';
import { Tx } from './tx.ts';
import { createUser, type NewUser } from './users.ts';

/** A unit of work over an empty state, with helpers that add records to it. */
export function testState(now = 1_700_000_000) {
  const tx = new Tx(emptyState());
  let users = 0;
  return {
    tx,
    now,
    user(input: NewUser & { shorturl?: string } = {}): User {
      users += 1;
      const id = input.platformId ?? `7656119800000${String(users).padStart(4, '0')}`;
      const user = createUser(tx, { balance: 1_000_000, ...input }, `key-${id}`, id, now);
      return input.shorturl ? tx.put('users', id, { ...user, shorturl: input.shorturl }) : user;
    },
    item: (fields: Partial<Item> = {}): Item => putItem(tx, { name: 'Test Item', game: 440, ...fields }),
    asset: (input: Partial<NewAsset> & Pick<NewAsset, 'owner' | 'itemId'>): Asset => putAsset(tx, input, now),
    order(owner: string, itemId: number, price: number, amount: number) {
      const result = placeOrder(tx, { owner, itemId, price, amount, now });
      if (!result.ok) throw new Error(`order refused: ${JSON.stringify(result.error)}`);
      return result.value;
    },
    sale(fields: Partial<Sale> & Pick<Sale, 'item_id' | 'price' | 'timestamp'>): Sale {
      const id = tx.nextId('sales');
      const sale: Sale = { id, assetId: String(id), fee: 0, seller: 'seller', buyer: 'buyer', ...fields };
      return tx.put('sales', id, sale);
    },
  };
}
