// Conventions, "Text" (this document's rule): a string holding NUL (U+0000) or a surrogate code
// unit that is not half of a pair (`"\ud800"` in JSON) is refused at the gate. Both are valid
// JSON, but PostgreSQL's text and jsonb can hold neither, so a store that keeps them as sent and
// one that cannot would answer the same request differently; refused here, every backend and the
// mock give one answer, and no store ever sees such a string.
import type { Request } from 'express';
import { INVALID_BODY } from './validation-message.ts';

// Without the `u` flag a regular expression reads code units, so a lone half of a pair is visible.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether a string holds NUL or an unpaired surrogate. */
export const isUnstorable = (text: string): boolean => text.includes('\u0000') || LONE_SURROGATE.test(text);

/** Whether a value holds such a string anywhere: a value, or a key of a nested object. */
function holdsUnstorable(value: unknown): boolean {
  if (typeof value === 'string') return isUnstorable(value);
  if (Array.isArray(value)) return value.some(holdsUnstorable);
  if (value && typeof value === 'object')
    for (const key of Object.keys(value))
      if (isUnstorable(key) || holdsUnstorable((value as Record<string, unknown>)[key])) return true;
  return false;
}

/**
 * The documented message for a request carrying such a string, or undefined: `Invalid <field>
 * parameter` for the path, query or body parameter that holds it (at any depth), `Invalid request
 * body` when a body field's own name does (it names no parameter).
 */
export function unstorableTextMessage(req: Request): string | undefined {
  const params = (req as Request & { openapi?: { pathParams?: Record<string, unknown> } }).openapi?.pathParams;
  // One source after another, without a list of them or of their entries (this runs on every request).
  return unstorableIn(params, false) ?? unstorableIn(req.query, false) ?? unstorableIn(req.body, true);
}

/** `unstorableTextMessage` for one source of fields (`isBody`: a field's own name gets INVALID_BODY). */
function unstorableIn(source: unknown, isBody: boolean): string | undefined {
  if (!source || typeof source !== 'object' || Array.isArray(source)) return undefined;
  for (const field of Object.keys(source)) {
    if (isUnstorable(field)) {
      if (isBody) return INVALID_BODY;
      continue; // a query name no operation declares: ignored, as unknown query parameters are
    }
    if (holdsUnstorable((source as Record<string, unknown>)[field])) return `Invalid ${field} parameter`;
  }
  return undefined;
}
