// Which named example of the document answers each documented error, so the docs page can show the
// exact `Prefer` header that makes the mock (Prism) return it. Prism picks a response by status
// code and example name (`Prefer: code=300, example=noBuyOrderFound`); the names are the keys of
// each response's `examples`, and an error message is matched to the example carrying it.

import { type Json, resolveRef } from '../packages/contract/src/document.ts';

export interface MockExample {
  status: string;
  name: string;
  /** The error message the example carries, when it has one. */
  message?: string;
}

/** The message an error body carries: envelope A `content`, its `content.message`, or B's `message`. */
export function messageOf(body: Json): string | undefined {
  if (typeof body?.content === 'string') return body.content;
  if (typeof body?.content?.message === 'string') return body.content.message;
  if (typeof body?.message === 'string') return body.message;
  return undefined;
}

/** The `Prefer` header that makes the mock answer this example. */
export const preferHeader = (example: MockExample) => `Prefer: code=${example.status}, example=${example.name}`;

/** Every named example of the operation's non-2xx responses (JSON), by status then name. */
export function errorExamples(doc: Json, op: Json): MockExample[] {
  const out: MockExample[] = [];
  for (const [status, response] of Object.entries(op.responses ?? {})) {
    if (/^2/.test(status)) continue;
    const examples = resolveRef(doc, response)?.content?.['application/json']?.examples ?? {};
    for (const [name, example] of Object.entries(examples))
      out.push({ status, name, message: messageOf(resolveRef(doc, example)?.value) });
  }
  return out;
}

/**
 * The example of a documented message (`x-error-messages` entry). A `<placeholder>` in the message
 * stands for any text (`No buy order for assetId: <asset_id>`).
 */
export function exampleFor(examples: MockExample[], status: string, message: string): MockExample | undefined {
  const pattern = new RegExp(
    `^${message
      .split(/<[^>]+>/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.+')}$`,
  );
  return examples.find((e) => e.status === status && e.message !== undefined && pattern.test(e.message));
}
