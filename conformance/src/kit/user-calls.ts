// Calls as one logged-in user (a `session()`), each answer checked against the document first.
import type { session } from './helpers.ts';
import { type Answer, assertConforms, call } from './http.ts';

type Me = Awaited<ReturnType<typeof session>>;

/** A GET as `me` (JWT and its login IP) whose answer must conform. */
export async function getAs(me: Me, path: string, query: Record<string, string | number> = {}): Promise<Answer> {
  const answer = await call('GET', path, { query, token: me.token, ip: me.ip });
  assertConforms(answer);
  return answer;
}

/** A JSON POST as `me` whose answer must conform. */
export async function postAs(me: Me, path: string, json: unknown): Promise<Answer> {
  const answer = await call('POST', path, { json, token: me.token, ip: me.ip });
  assertConforms(answer);
  return answer;
}
