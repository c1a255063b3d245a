// Two-factor authentication as tests set it up: TOTP codes computed by the suite, an independent
// check of the target's (RFC 6238: HMAC-SHA1, 30-second steps, 6 digits, from the `base32` secret
// `GET /user/2FA/create` returns, at the target's clock), and 2FA activated with them.
import { createHmac } from 'node:crypto';
import { content, getOk } from './behavior.ts';
import { helpers } from './helpers.ts';
import { assertConforms, assertThat, call } from './http.ts';

function base32Decode(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const ch of text.replace(/=+$/, '')) bits += alphabet.indexOf(ch).toString(2).padStart(5, '0');
  const bytes: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(Number.parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

/** The RFC 6238 code of a base32 secret at Unix time `now`. */
export function totp(base32: string, now: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(now / 30)));
  const mac = createHmac('sha1', base32Decode(base32)).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const value = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(value % 1_000_000).padStart(6, '0');
}

/**
 * Sets the test clock a day ahead of real time, at the start of a 30-second step, and returns it:
 * a code of the machine's time is then 2,880 steps off, and the clock's code stays current for the
 * next half minute (a server may allow no drift).
 */
export async function clockADayAhead(): Promise<number> {
  const day = Math.floor(Date.now() / 1000) + 86_400;
  return (await helpers.setClock(day - (day % 30) + 30)).now;
}

/** Creates a secret and activates 2FA of `me` with the current code and a backup address; returns the secret. */
export async function activateTwoFactor(me: { token: string; ip: string }, backup: string): Promise<string> {
  const created = await getOk('/user/2FA/create', {}, me.token, me.ip);
  const { base32, key } = content(created);
  const code = totp(base32, await helpers.now());
  const done = await call('POST', '/user/2FA/validate', {
    json: { secret: key, code, email: backup },
    token: me.token,
    ip: me.ip,
  });
  assertConforms(done);
  assertThat(done, done.status === 200 && content(done) === '2FA activated', '2FA is activated');
  return base32;
}
