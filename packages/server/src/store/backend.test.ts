import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryWindows } from '@marketplace/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Tx } from '../domain/tx.ts';
import { StartRefusal } from '../start-refusal.ts';
import { MemoryWorld } from '../world.ts';
import { backendChoice, openBackend } from './backend.ts';

const SLOW = { timeout: 60_000 };
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'backend-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('backendChoice', () => {
  it('reads MARKETPLACE_DB: memory, a PostgreSQL URL (either scheme) or a file path', () => {
    expect(backendChoice(':memory:')).toEqual({ kind: 'memory' });
    expect(backendChoice('postgres://u@h/db', { poolSize: 3 })).toEqual({
      kind: 'postgres',
      url: 'postgres://u@h/db',
      poolSize: 3,
    });
    expect(backendChoice('postgresql://u@h/db').kind).toBe('postgres');
    expect(backendChoice('data/db.json', { store: { merger: 'inline' } })).toEqual({
      kind: 'file',
      path: 'data/db.json',
      store: { merger: 'inline' },
    });
  });
});

describe('openBackend', () => {
  it(
    'memory: a store, world and windows of its own, given secrets kept and the others new each time',
    SLOW,
    async () => {
      const given = 'g'.repeat(32);
      const a = await openBackend({ kind: 'memory' }, { 'jwt-secret': given });
      const b = await openBackend({ kind: 'memory' });
      expect(a.kind).toBe('memory');
      expect(a.world).toBeInstanceOf(MemoryWorld);
      expect(a.rateWindows).toBeInstanceOf(MemoryWindows);
      expect(await a.secret('jwt-secret')).toBe(given);
      expect(await a.secret('code-key')).not.toBe(await b.secret('code-key'));
      const tx = new Tx(a.store.state);
      tx.put('records', 1, { id: '1', kind: 'test' });
      await a.store.commit(tx);
      expect(b.store.state.records).toEqual({});
      await a.close();
      await b.close();
    },
  );

  it('file: secrets kept beside the store, the same after a reopen', SLOW, async () => {
    const path = join(dir, 'db.json');
    const first = await openBackend(backendChoice(path, { store: { merger: 'inline' } }));
    const secret = await first.secret('deposit-secret');
    expect(readFileSync(`${path}.deposit-secret`, 'utf8').trim()).toBe(secret);
    await first.close();
    const again = await openBackend(backendChoice(path, { store: { merger: 'inline' } }));
    expect(await again.secret('deposit-secret')).toBe(secret);
    expect(again.store.created).toBe(true); // nothing was committed
    await again.close();
  });

  it('file: a damaged secret refuses the start before the store writes anything', SLOW, async () => {
    const path = join(dir, 'db.json');
    writeFileSync(`${path}.code-key`, '\n');
    await expect(openBackend(backendChoice(path))).rejects.toBeInstanceOf(StartRefusal);
    expect(existsSync(path)).toBe(false);
    expect(readdirSync(dir)).toEqual(['db.json.code-key']);
  });

  it('file: a given secret shorter than 32 bytes names its variable', SLOW, async () => {
    const path = join(dir, 'db.json');
    await expect(openBackend(backendChoice(path), { 'secrets-key': 'short' })).rejects.toThrow(
      /MARKETPLACE_SECRETS_KEY holds 5 bytes/,
    );
    expect(readdirSync(dir)).toEqual([]);
  });
});
