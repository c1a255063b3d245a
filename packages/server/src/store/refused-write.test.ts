// A refused write fails alone (issue 33, item 2; group-commit.ts). A change the store will not take
// (a PostgreSQL constraint, poisoned here on purpose) sent in the middle of other users' writes at
// the same moment: only that request fails, with the documented 500; every other request of its
// group, and those queued behind it, is committed and answers as it would have alone. Afterwards
// every instance serves the same balances and tickets as the store holds: nothing of the refused
// change was kept, no money moved for it.
//
// The poison: on PostgreSQL a CHECK constraint on the change log refuses changes holding a marker
// (a real refusal by the database, nothing in the server knows of it); on the file store a file
// port refuses the journal line holding it (`RefusedChange`, the test seam the journal offers); a
// memory store refuses nothing, so there the poisoned requests succeed and only the others are
// compared.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { auditMoney } from '../domain/audit.ts';
import { startTestServer } from '../routes/test-harness.fixture.ts';
import { nodeFiles, type StoreFiles } from './files.ts';
import { RefusedChange } from './group-commit.ts';
import { useDatabases } from './postgres/databases.fixture.ts';
import { type Client, clientOf, contentOf, type Session, startInstances } from './postgres/instances.fixture.ts';
import { loadPostgresState } from './postgres/postgres-store.ts';

const databases = useDatabases('refused_write');
const scratch = mkdtempSync(join(tmpdir(), 'refused-write-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const USERS = 24;
const ROUNDS = 4;
const BALANCE = 1_000_000;
/** A ticket subject and a buy-order price no store of this test takes. */
const POISON_SUBJECT = 'POISON ticket';
const POISON_PRICE = 4242;
const INTERNAL_ERROR = { err: true, success: false, content: 'Internal server error' };
const ticket = { description: 'Where is my trade?', topic: 'trading', concern: 'deposit' };

interface Outcome {
  /** Answers of the other users' requests that were not 200. */
  othersFailed: string[];
  /** The poisoned requests' answers (status and body). */
  poisoned: [number, unknown][];
}

/**
 * Rounds of writes at once through `clients` (users dealt over them): half the users open a ticket,
 * half place a buy order; in the middle of each round one user places a buy order at the poisoned
 * price and another opens a ticket with the poisoned subject. Then checks what every client serves.
 */
async function poisonedRounds(clients: Client[], poisons: boolean): Promise<Outcome & { users: Session[] }> {
  const [first] = clients as [Client];
  const items = await Promise.all(
    Array.from({ length: ROUNDS }, (_, r) =>
      first.helper<{ id: number }>('/items', { name: `Round ${r} Key`, game: 440 }),
    ),
  );
  const users: Session[] = [];
  for (let i = 0; i < USERS + 2; i++)
    users.push(await clients[i % clients.length]!.session({ balance: BALANCE }, `198.51.100.${40 + i}`));
  const clientOfUser = (i: number) => clients[i % clients.length]!;
  const [moneyPoisoner, ticketPoisoner] = [USERS, USERS + 1];
  const outcome: Outcome = { othersFailed: [], poisoned: [] };
  const expected = users.map(() => ({ balance: BALANCE, tickets: 0 }));

  for (let r = 0; r < ROUNDS; r++) {
    const sends = users.map((me, i) => {
      const client = clientOfUser(i);
      if (i === moneyPoisoner)
        return client.post(me, '/item/buyorder', { itemid: items[r]!.id, value: POISON_PRICE, amount: 1 });
      if (i === ticketPoisoner) return client.post(me, '/support/create', { ...ticket, subject: POISON_SUBJECT });
      if (i % 2 === 0) return client.post(me, '/support/create', { ...ticket, subject: `Round ${r} of user ${i}` });
      return client.post(me, '/item/buyorder', { itemid: items[r]!.id, value: 100 + 10 * r + i, amount: 2 });
    });
    // The poisoned ones go out in the middle of the others.
    const order = [...sends.keys()];
    order.splice(USERS / 2, 0, ...order.splice(USERS, 2));
    const answers = await Promise.all(order.map((i) => sends[i]!));
    for (const [k, answer] of answers.entries()) {
      const i = order[k]!;
      if (i === moneyPoisoner || i === ticketPoisoner) {
        outcome.poisoned.push([answer.status, answer.body]);
        if (answer.status === 200 && i === moneyPoisoner) expected[i]!.balance -= POISON_PRICE;
        if (answer.status === 200 && i === ticketPoisoner) expected[i]!.tickets += 1;
        continue;
      }
      if (answer.status !== 200)
        outcome.othersFailed.push(`user ${i}, round ${r}: ${answer.status} ${JSON.stringify(answer.body)}`);
      else if (i % 2 === 0) expected[i]!.tickets += 1;
      else expected[i]!.balance -= 2 * (100 + 10 * r + i);
    }
  }

  // Every client serves what was acknowledged, and nothing of what was refused.
  for (const client of clients)
    for (const [i, me] of users.entries()) {
      expect(await client.balanceOf(me), `user ${i}'s balance on ${client.base}`).toBe(expected[i]!.balance);
      const tickets = contentOf(await client.get(me, '/support/list')).list as unknown[];
      expect(tickets.length, `user ${i}'s tickets on ${client.base}`).toBe(expected[i]!.tickets);
    }
  expect(outcome.poisoned).toEqual(
    Array(2 * ROUNDS).fill(poisons ? [500, INTERNAL_ERROR] : expect.arrayContaining([200])),
  );
  return { ...outcome, users };
}

/** A file port whose journal refuses any line holding a poisoned value (nothing of it written). */
const poisonedFiles: StoreFiles = {
  async open(path, flags) {
    const handle = await nodeFiles.open(path, flags);
    return {
      sync: () => handle.sync(),
      close: () => handle.close(),
      truncate: (length) => handle.truncate(length),
      async appendFile(data) {
        if (data.includes(POISON_SUBJECT) || data.includes(`"price":${POISON_PRICE}`))
          throw new RefusedChange('the test refuses a poisoned change');
        return handle.appendFile(data);
      },
    };
  },
};

/** Makes the database refuse every change holding a poisoned value. */
async function poisonDatabase(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`ALTER TABLE marketplace_changes ADD CONSTRAINT poisoned
      CHECK (strpos(changes::text, '${POISON_SUBJECT}') = 0 AND strpos(changes::text, '"price": ${POISON_PRICE}') = 0)`);
  } finally {
    await client.end();
  }
}

describe('a write the store refuses, in the middle of other users writing at once', () => {
  it.each([
    ['memory', ':memory:', false],
    ['file', join(scratch, 'db.json'), true],
  ] as const)('%s store: no other request fails', { timeout: 180_000 }, async (_name, db, poisons) => {
    const t = await startTestServer({
      env: { MARKETPLACE_DB: db, MARKETPLACE_TRUST_PROXY: 'loopback' },
      store: poisons ? { files: poisonedFiles, merger: 'inline' } : undefined,
    });
    try {
      const { othersFailed } = await poisonedRounds([clientOf(t.baseUrl)], poisons);
      expect(othersFailed).toEqual([]);
      expect(auditMoney(t.deps.store.state).problems).toEqual([]);
    } finally {
      await t.close();
      await t.deps.store.close();
    }
  });

  it.skipIf(databases.missing).each([1, 2])(
    'PostgreSQL, %i instance(s): no other request fails',
    { timeout: 300_000 },
    async (count) => {
      const db = await databases.database();
      const instances = await startInstances(db, count);
      try {
        await poisonDatabase(db);
        const { othersFailed } = await poisonedRounds(instances.urls.map(clientOf), true);
        expect(othersFailed).toEqual([]);
        const state = await loadPostgresState(db);
        expect(auditMoney(state).problems).toEqual([]);
        expect(JSON.stringify(state)).not.toContain(POISON_SUBJECT);
      } catch (error) {
        (error as Error).message += instances.urls
          .map((_, i) => `\n--- instance ${i}:\n${instances.output(i)}`)
          .join('');
        throw error;
      } finally {
        await instances.stopAll();
      }
    },
  );
});
