// Secrets sealed at rest (issue 24, point 5): a TOTP secret and its key are kept as AES-256-GCM
// ciphertext under a key kept apart from the store (`MARKETPLACE_SECRETS_KEY`, or
// `<db>.secrets-key`, 0600, beside a file store), so a store file, a backup or a database dump
// holds none of them in clear. The state in memory holds the sealed form too: what is journaled,
// snapshotted or written to PostgreSQL is what the engine holds, and only the operation that needs
// a secret opens it.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { PendingSecret, Sealer } from '../domain/two-factor.ts';
import { Tx } from '../domain/tx.ts';
import type { Store } from '../store/store.ts';

const PREFIX = 'aes-256-gcm:';

/** Whether a stored value is sealed (values stored before sealing are sealed at the next start). */
export const isSealed = (value: string): boolean => value.startsWith(PREFIX);

/** A sealer under `secretsKey` (any string of at least 32 bytes; the AES key is its SHA-256). */
export function aesSealer(secretsKey: string): Sealer {
  const key = createHash('sha256').update(secretsKey).digest();
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `${PREFIX}${[iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url')).join('.')}`;
    },
    open(value) {
      if (!isSealed(value)) return value;
      const [iv, tag, data] = value
        .slice(PREFIX.length)
        .split('.')
        .map((part) => Buffer.from(part, 'base64url'));
      const decipher = createDecipheriv('aes-256-gcm', key, iv!);
      decipher.setAuthTag(tag!);
      return Buffer.concat([decipher.update(data!), decipher.final()]).toString('utf8');
    },
  };
}

/**
 * Seals the TOTP secrets and keys a store holds in clear (kept before sealing existed) in one
 * commit, then snapshots, so that no store file keeps them in clear (the journal that carried the
 * sealing is folded into the snapshot, the clear lines replaced). A no-op once all are sealed.
 */
export async function sealStoredSecrets(store: Store, sealer: Sealer): Promise<void> {
  const tx = new Tx(store.state);
  const sealed = (value: string) => (isSealed(value) ? value : sealer.seal(value));
  let changed = 0;
  for (const [id, record] of Object.entries(store.state.twoFactor)) {
    if (isSealed(record.secret) && isSealed(record.key)) continue;
    tx.put('twoFactor', id, { ...record, secret: sealed(record.secret), key: sealed(record.key) });
    changed++;
  }
  for (const [id, record] of Object.entries(store.state.records)) {
    if (record.kind !== 'twoFactorPending') continue;
    const pending = record as unknown as PendingSecret;
    if (isSealed(pending.secret) && isSealed(pending.key)) continue;
    tx.put('records', id, { ...record, secret: sealed(pending.secret), key: sealed(pending.key) });
    changed++;
  }
  if (changed === 0) return;
  await store.commit(tx);
  await store.snapshot();
}
