// Finds the document operation of a request (method + concrete path) before any handler runs, so
// permissions, rate limits and form coercion can be applied from the document. Literal segments win
// over parameters (`/user/disconnectSession/all` over `/user/disconnectSession/{id}`).
import type { OperationInfo } from './operation-index.ts';

interface Compiled {
  info: OperationInfo;
  pattern: RegExp;
  literals: number;
}

const firstSegment = (path: string) => path.split('/')[1] ?? '';

export class RouteMatcher {
  #routes: Compiled[];
  /** The routes by first path segment (no document path starts with a parameter). */
  #bySegment = new Map<string, Compiled[]>();

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
        };
      })
      .sort((a, b) => b.literals - a.literals);
    for (const r of this.#routes) {
      const key = firstSegment(r.info.path);
      this.#bySegment.set(key, [...(this.#bySegment.get(key) ?? []), r]);
    }
  }

  /** The operation of `METHOD path`, or undefined for an unknown route. */
  match(method: string, path: string): OperationInfo | undefined {
    const upper = method.toUpperCase();
    return this.#bySegment.get(firstSegment(path))?.find((r) => r.info.method === upper && r.pattern.test(path))?.info;
  }

  /** Whether some operation has this path with another method (for 405-style answers). */
  knowsPath(path: string): boolean {
    return (this.#bySegment.get(firstSegment(path)) ?? []).some((r) => r.pattern.test(path));
  }
}
