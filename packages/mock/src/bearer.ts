// Who the mock lets through (ADR 0017). The mock has no accounts and no signing key, so it cannot
// check a JWT's signature, session or roles; it refuses what the API refuses whatever the state:
// no bearer, a bearer that is not a JWT, or one whose `exp` has passed. Any other JWT (the login
// example's included, which has no `exp`) stands for a caller, admin included, as the seed shows
// no way to tell an admin's token (the `roles` claim's contents are not shown).
import type { PermittedCaller } from '@marketplace/contract';

const SEGMENT = /^[A-Za-z0-9_-]+$/;

/** The JSON object a base64url JWT segment holds, or undefined. */
function segmentObject(segment: string): Record<string, unknown> | undefined {
  if (!SEGMENT.test(segment)) return undefined;
  try {
    const value = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The caller an `Authorization` header stands for at `now` (Unix seconds), or undefined. */
export function mockCaller(authorization: string | undefined, now: number): PermittedCaller | undefined {
  const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
  const [header, payload, signature, ...rest] = token?.split('.') ?? [];
  if (!header || !payload || !signature || rest.length || !SEGMENT.test(signature)) return undefined;
  const claims = segmentObject(payload);
  if (typeof segmentObject(header)?.alg !== 'string' || !claims) return undefined;
  if (claims.exp !== undefined && !(typeof claims.exp === 'number' && claims.exp > now)) return undefined;
  return { user: { admin: true } };
}
