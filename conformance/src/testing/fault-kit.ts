// What every planted fault is made of (faults.ts, faults-meaning.ts): the exchange a proxy sees,
// the memory it keeps between exchanges, and the small stores and readings faults share.

// biome-ignore lint/suspicious/noExplicitAny: answers are rewritten as plain JSON
export type Json = any;

/** What the client sent, as the proxy forwards it (a fault may rewrite it first). */
export interface Outgoing {
  method: string;
  url: URL;
  headers: Record<string, string>;
  /** The JSON body, when there is one (rewritten bodies are sent re-serialised). */
  body?: Json;
}

/** A request and its answer as a fault's proxy sees them; a fault may rewrite the answer's body in place. */
export interface ProxiedExchange {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  /** The JSON body the client sent, if any. */
  requestBody?: Json;
  /** The subject (platform user ID) of the bearer token sent, if any. */
  user?: string;
  status: number;
  responseHeaders: Record<string, string>;
  body: Json;
}

/** What one proxy remembers between exchanges (stateful faults: a limit keyed on another identity). */
export type Memory = Map<string, Json>;

export interface Fault {
  description: string;
  /** The kind of weakness the fault plants (the three kinds of issue 15, or a plain contract break). */
  kind?:
    | 'scope'
    | 'states'
    | 'filter'
    | 'money'
    | 'ownership'
    | 'order'
    | 'deadline'
    | 'rounding'
    | 'helper'
    // issue 32: a meaning told from its near miss, a number from both sides, a draw not by chance
    | 'meaning'
    | 'limit'
    | 'chance';
  /** The suite's tests that must notice it (a --grep pattern). */
  grep: string;
  request?: (r: Outgoing, memory: Memory) => void;
  /** The answer's rewrite; it may read the target's state first (a promise the proxy awaits). */
  response?: (x: ProxiedExchange, memory: Memory) => void | Promise<void>;
  /** What every failure it causes must say (a set-up that failed on it, say), when it is one thing. */
  says?: string;
  /** An answer given in place of the implementation's (nothing is forwarded): a route it lacks. */
  answer?: (r: Outgoing) => { status: number; body: Json; contentType?: string } | undefined;
}

export const ok = (content: Json) => ({ err: false, success: true, content });
export const refusal = (content: string) => ({ err: true, success: false, content });

/** A set or a map the proxy keeps under `name` in its memory. */
export function kept<T extends Set<string> | Map<string, string>>(memory: Memory, name: string, make: () => T): T {
  if (!memory.has(name)) memory.set(name, make());
  return memory.get(name);
}
export const set = (memory: Memory, name: string) => kept(memory, name, () => new Set<string>());
export const map = (memory: Memory, name: string) => kept(memory, name, () => new Map<string, string>());

/**
 * The response rewrite of an implementation that answers `path` (a literal path, or a pattern for
 * paths with parameters) with other content: `fn` changes the answer's payload in place (envelope A's
 * `content`, B's `data`), and only ever sees one that is an object.
 */
export const rewriteContent =
  (path: string | RegExp, fn: (content: Json, x: ProxiedExchange, memory: Memory) => void) =>
  (x: ProxiedExchange, memory: Memory): void => {
    if (typeof path === 'string' ? x.path !== path : !path.test(x.path)) return;
    const content = x.body?.content ?? x.body?.data;
    if (content !== null && typeof content === 'object') fn(content, x, memory);
  };

/**
 * What a test helper answered, remembered by the proxy: `entry` turns each successful answer of the
 * helper at `path` (its content and the body sent) into a key and a value, kept in a map of the
 * proxy's memory under `name` until a reset empties it (the records it describes are gone then).
 * The call returns the map, for the fault's rewrite to read (or to add what public reads show).
 */
export const helperAnswers =
  (
    name: string,
    path: string | RegExp,
    entry: (content: Json, sent: Json, x: ProxiedExchange) => [string, string] | undefined,
  ) =>
  (x: ProxiedExchange, memory: Memory): Map<string, string> => {
    const seen = map(memory, name);
    if (x.path === '/test_helpers/reset' && x.status === 200) seen.clear();
    const matches = typeof path === 'string' ? x.path === path : path.test(x.path);
    const kept = matches && x.status === 200 ? entry(x.body?.content, x.requestBody ?? {}, x) : undefined;
    if (kept) seen.set(...kept);
    return seen;
  };

/** A list's order newest created first: what an implementation sorting by creation answers. */
export const newestCreatedFirst = (a: Json, b: Json): number => Number(b.created) - Number(a.created);

/** The test clock's time as the proxy last saw it set or read (`/test_helpers/clock`), in Unix seconds. */
export function clockNow(x: ProxiedExchange, memory: Memory): number {
  const clock = map(memory, 'clock');
  if (x.path === '/test_helpers/clock' && typeof x.body?.content?.now === 'number')
    clock.set('now', String(x.body.content.now));
  return Number(clock.get('now'));
}

/** The request rewrite of a sales graph drawn for period `drawn` whenever `asked` is asked. */
export const graphsPeriodAs =
  (asked: string, drawn: string) =>
  (r: Outgoing): void => {
    if (r.url.pathname.startsWith('/item/salesGraph/') && r.url.searchParams.get('period') === asked)
      r.url.searchParams.set('period', drawn);
  };
