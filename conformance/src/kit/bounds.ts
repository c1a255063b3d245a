// The numbers the document states as bounds on an input (issue 32: "a documented number is shown
// both served below it and refused above it"): a parameter's or body field's `maximum`, `minimum`,
// `maxLength`, `minLength`, `maxItems`, read from the operation's schema so that a test sends the
// document's number, never a copy of it, and the message the document lists for a value past it.
import { deref, findOperation, type Json, type Operation } from '../oracle/document.ts';
import { expectedMessages } from './negative.ts';

export type BoundKeyword = 'maximum' | 'minimum' | 'maxLength' | 'minLength' | 'maxItems' | 'minItems';

/** The operation of `METHOD /path` (a document template); throws when the document has none. */
export function operationOf(method: 'GET' | 'POST', path: string): Operation {
  const o = findOperation(method, path);
  if (!o || o.path !== path) throw new Error(`the document has no operation ${method} ${path}`);
  return o;
}

/** The schema of a query or path parameter, or else of a JSON body property, named `field`. */
export function fieldSchema(o: Operation, field: string): Json | undefined {
  const parameter = (o.op.parameters ?? []).map(deref).find((p: Json) => p?.name === field);
  if (parameter) return deref(parameter.schema);
  const body = deref(deref(o.op.requestBody)?.content?.['application/json']?.schema);
  return deref(body?.properties?.[field]);
}

/** A bound of a field as the document states it; throws when it states none (a test must not guess it). */
export function boundOf(o: Operation, field: string, keyword: BoundKeyword): number {
  const value = fieldSchema(o, field)?.[keyword];
  if (typeof value !== 'number') throw new Error(`${o.name} states no ${keyword} for ${field}`);
  return value;
}

/** The message the document lists for `field` past its `keyword` bound (`x-error-messages`, ADR 0002). */
export function pastBoundMessage(o: Operation, field: string, keyword: BoundKeyword | 'pattern'): string {
  const [message] = expectedMessages(o, { field, reason: 'invalid', keyword });
  if (!message) throw new Error(`${o.name} lists no message for ${field}`);
  return message;
}

/**
 * A number the document states only in words of an `x-error-messages` entry (its message or its
 * condition: "5 wrong codes were sent", "Minimum 100 entries required"): the first capture of
 * `pattern` there; throws when no entry of that message says it.
 */
export function statedNumber(o: Operation, message: RegExp | string, pattern: RegExp): number {
  const entries: { message: string; condition?: string }[] = o.op['x-error-messages'] ?? [];
  for (const m of entries) {
    if (typeof message === 'string' ? m.message !== message : !message.test(m.message)) continue;
    const found = pattern.exec(`${m.message} ${m.condition ?? ''}`)?.[1];
    if (found) return Number(found);
  }
  throw new Error(`${o.name} states no number for ${message}`);
}
