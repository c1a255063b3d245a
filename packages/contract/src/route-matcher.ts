// Finds the document operation of a request (method + concrete path) before any handler runs, so
// permissions, rate limits and form coercion can be applied from the document. Literal segments win
// over parameters (`/user/disconnectSession/all` over `/user/disconnectSession/{id}`).
import type { OperationInfo } from './operation-index.ts';

interface Compiled {
  info: OperationInfo;
  pattern: RegExp;
  literals: number;
  /** The path's parameter names, in the order of the pattern's groups. */
  names: string[];
}

/** A path's first segment (`item` of `/item/listing/1`), without splitting the whole path. */
function firstSegment(path: string): string {
  if (path.charCodeAt(0) !== 47) return ''; // no leading `/`
  const end = path.indexOf('/', 1);
  return end === -1 ? path.slice(1) : path.slice(1, end);
}

/** The segment after the first (`listing` of `/item/listing/1`), or undefined when there is none. */
function secondSegment(path: string, first: string): string | undefined {
  const start = first.length + 2;
  if (path.length < start) return undefined;
  const end = path.indexOf('/', start);
  return end === -1 ? path.slice(start) : path.slice(start, end);
}

/**
 * The patterns of one method and first segment, by the path's second segment: a pattern whose
 * second segment is another literal cannot match, so it is not tried.
 */
interface Bucket {
  bySecond: Map<string, Compiled[]>;
  /** For a second segment no pattern names: those with a parameter there, or no second segment. */
  other: Compiled[];
}

/** The second segment of a document path when it is a literal, else undefined. */
const literalSecond = (r: Compiled): string | undefined => {
  const second = r.info.path.split('/')[2];
  return second === undefined || second.startsWith('{') ? undefined : second;
};

function bucketOf(routes: Compiled[]): Bucket {
  const other = routes.filter((r) => literalSecond(r) === undefined);
  const bySecond = new Map<string, Compiled[]>();
  for (const r of routes) {
    const second = literalSecond(r);
    if (second !== undefined && !bySecond.has(second))
      bySecond.set(
        second,
        routes.filter((c) => literalSecond(c) === undefined || literalSecond(c) === second),
      );
  }
  return { bySecond, other };
}

/** A request's operation and the raw values of its path parameters, in the path's order. */
export interface RouteMatch {
  info: OperationInfo;
  values: string[];
}

export class RouteMatcher {
  #routes: Compiled[];
  /** The routes by first path segment (no document path starts with a parameter). */
  #bySegment = new Map<string, Compiled[]>();
  /** By method, first and second segment: a request tries only the patterns that could match it. */
  #byMethod = new Map<string, Map<string, Bucket>>();
  #byInfo = new Map<OperationInfo, Compiled>();

  constructor(operations: Iterable<OperationInfo>) {
    this.#routes = [...operations]
      .map((info) => {
        const segments = info.path.split('/').filter(Boolean);
        const source = segments
          .map((s) => (s.startsWith('{') ? '([^/]+)' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
          .join('/');
        return {
          info,
          pattern: new RegExp(`^/${source}/?$`),
          literals: segments.filter((s) => !s.startsWith('{')).length,
          names: segments.filter((s) => s.startsWith('{')).map((s) => s.slice(1, -1)),
        };
      })
      .sort((a, b) => b.literals - a.literals);
    const byMethod = new Map<string, Map<string, Compiled[]>>();
    for (const r of this.#routes) {
      const key = firstSegment(r.info.path);
      this.#bySegment.set(key, [...(this.#bySegment.get(key) ?? []), r]);
      const segments = byMethod.get(r.info.method) ?? new Map<string, Compiled[]>();
      byMethod.set(r.info.method, segments);
      segments.set(key, [...(segments.get(key) ?? []), r]);
      this.#byInfo.set(r.info, r);
    }
    for (const [method, segments] of byMethod)
      this.#byMethod.set(method, new Map([...segments].map(([key, routes]) => [key, bucketOf(routes)])));
  }

  /** The operation of `METHOD path`, or undefined for an unknown route. */
  match(method: string, path: string): OperationInfo | undefined {
    return this.find(method, path)?.info;
  }

  /** The operation of `METHOD path` with its path's values (what the request flow keeps), or undefined. */
  find(method: string, path: string): RouteMatch | undefined {
    const segments = this.#byMethod.get(method) ?? this.#byMethod.get(method.toUpperCase());
    const first = firstSegment(path);
    const bucket = segments?.get(first);
    if (bucket === undefined) return undefined;
    const second = secondSegment(path, first);
    const routes = (second !== undefined && bucket.bySecond.get(second)) || bucket.other;
    for (const r of routes) {
      const groups = r.pattern.exec(path);
      if (groups) return { info: r.info, values: groups.slice(1) };
    }
    return undefined;
  }

  /**
   * The path parameters of `path` for the operation `match` chose, decoded as Express decodes them
   * (a malformed escape is kept as sent: the document's schema then judges the raw value).
   */
  params(info: OperationInfo, path: string): Record<string, string> {
    const groups = this.#byInfo.get(info)?.pattern.exec(path);
    return groups ? this.decoded({ info, values: groups.slice(1) }) : {};
  }

  /** The path parameters of a match, decoded as `params` decodes them. */
  decoded({ info, values }: RouteMatch): Record<string, string> {
    const params: Record<string, string> = {};
    const names = this.#byInfo.get(info)?.names ?? [];
    for (let i = 0; i < names.length; i += 1) {
      const raw = values[i] ?? '';
      // Most values hold no escape: nothing to decode.
      params[names[i]!] = raw.includes('%') ? decodedOrRaw(raw) : raw;
    }
    return params;
  }

  /**
   * The path parameters typed as the document types them: a parameter whose schema is a number is
   * one. Only for a request the validator has passed (its numbers are then numbers).
   */
  typedParams(info: OperationInfo, path: string): Record<string, string | number> {
    const groups = this.#byInfo.get(info)?.pattern.exec(path);
    return groups ? this.typed({ info, values: groups.slice(1) }) : {};
  }

  /** The path parameters of a match, typed as `typedParams` types them. */
  typed(match: RouteMatch): Record<string, string | number> {
    const params: Record<string, string | number> = this.decoded(match);
    for (const name of match.info.numericParams) if (name in params) params[name] = Number(params[name]);
    return params;
  }

  /** Whether some operation has this path with another method (for 405-style answers). */
  knowsPath(path: string): boolean {
    return (this.#bySegment.get(firstSegment(path)) ?? []).some((r) => r.pattern.test(path));
  }
}

/** A path value decoded, or as sent when its escape is malformed. */
function decodedOrRaw(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
