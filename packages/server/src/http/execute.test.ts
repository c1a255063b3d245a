import { describe, expect, it } from 'vitest';
import { fail, ok } from '../domain/tx.ts';
import { startTestServer } from '../routes/test-harness.fixture.ts';
import { execute } from './execute.ts';

describe('execute', () => {
  it('commits, journals and then performs the effects of a successful command', async () => {
    const { deps, close } = await startTestServer();
    try {
      const result = await execute(deps, (tx) => {
        tx.put('records', 'r1', { id: 'r1', kind: 'probe' });
        tx.emit({ kind: 'mail', mail: { to: 'a@example.com', kind: 'probe', subject: 's', body: 'b' } });
        tx.emit({ kind: 'offer', tradeId: 'T-1', offer: 'withdraw', platformId: 'p', assetIds: ['1'] });
        return ok(1);
      });
      expect(result).toEqual({ ok: true, value: 1 });
      expect(deps.store.state.records.r1?.kind).toBe('probe');
      expect(deps.outbox.list({ channel: 'email' }).map((m) => m.to)).toEqual(['a@example.com']);
      expect(deps.platform.offer('T-1')).toMatchObject({ kind: 'withdraw', status: 0 });
    } finally {
      await close();
    }
  });

  it('drops the writes and effects of a failed command, unless told to keep the writes', async () => {
    const { deps, close } = await startTestServer();
    try {
      await execute(deps, (tx) => {
        tx.put('records', 'dropped', { id: 'dropped', kind: 'probe' });
        tx.emit({ kind: 'mail', mail: { to: 'a@example.com', kind: 'probe', subject: 's', body: 'b' } });
        return fail('no');
      });
      await execute(deps, (tx) => {
        tx.put('records', 'kept', { id: 'kept', kind: 'attempt' });
        tx.keepWritesOnFailure();
        tx.emit({ kind: 'mail', mail: { to: 'a@example.com', kind: 'probe', subject: 's', body: 'b' } });
        return fail('Invalid or expired code');
      });
      expect(deps.store.state.records.dropped).toBeUndefined();
      expect(deps.store.state.records.kept?.kind).toBe('attempt');
      expect(deps.outbox.list({ channel: 'email' })).toEqual([]);
    } finally {
      await close();
    }
  });
});
