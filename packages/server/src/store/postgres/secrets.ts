// Secrets every instance on one database shares (ADR 0019): the JWT secret (a token signed by one
// instance is verified by the others), the deposit-key secret and the code HMAC key. Given in the
// environment, they are used as they are; otherwise the first instance generates each one and the
// others read it (`ON CONFLICT DO NOTHING` settles two instances starting at once).
import { randomBytes } from 'node:crypto';
import { longEnough } from '../../config.ts';
import type { Pool } from './connection.ts';

export async function sharedSecret(
  pool: Pool,
  given: string | undefined,
  name: string,
  variable = name,
): Promise<string> {
  if (given) return longEnough(given, variable, 'for example `openssl rand -hex 32`');
  await pool.query('INSERT INTO marketplace_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
    name,
    randomBytes(32).toString('hex'),
  ]);
  const { rows } = await pool.query<{ value: string }>('SELECT value FROM marketplace_secrets WHERE name = $1', [name]);
  return longEnough(rows[0]!.value, `the database's secret ${name}`, 'delete its row to have one generated');
}
