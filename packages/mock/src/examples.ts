// The documented examples of each operation by status, which `Prefer: code=<status>,
// example=<name>` picks from. A name the operation lacks gets the list of its names instead of
// Prism's internal error, and `marketplace-mock --examples <operationId>` prints the same lists.
import { indexOperations, type Json, resolveRef } from '@marketplace/contract';

export interface StatusExamples {
  status: string;
  names: string[];
}

export interface OperationExamples {
  operationId: string;
  method: string;
  path: string;
  statuses: StatusExamples[];
}

/** Every operation of the document with its documented statuses and their example names. */
export function documentExamples(doc: Json): OperationExamples[] {
  return [...indexOperations(doc).values()].map(({ operationId, method, path }) => {
    const op = doc.paths[path][method.toLowerCase()];
    const statuses = Object.entries<Json>(op.responses ?? {}).map(([status, raw]) => ({
      status,
      names: [
        ...new Set(
          Object.values<Json>(resolveRef(doc, raw)?.content ?? {}).flatMap((m) => Object.keys(m.examples ?? {})),
        ),
      ],
    }));
    return { operationId, method, path, statuses };
  });
}

/** `code=300, example=notEnoughBalance` as its parts (Prism's `Prefer` syntax). */
export function parsePrefer(header: string | undefined): Record<string, string> {
  const parts: Record<string, string> = {};
  for (const part of (header ?? '').split(/[,;]/)) {
    const [key, ...value] = part.split('=');
    if (key?.trim() && value.length) parts[key.trim().toLowerCase()] = value.join('=').trim().replace(/^"|"$/g, '');
  }
  return parts;
}

/** The statuses and names of an operation, one status a line: `300  notEnoughBalance, ...`. */
export function listing(op: OperationExamples): string {
  return op.statuses.map((s) => `${s.status}  ${s.names.join(', ') || '(no named example)'}`).join('\n');
}

const oneLine = (op: OperationExamples) =>
  op.statuses.map((s) => `${s.status}: ${s.names.join(', ') || '(no named example)'}`).join('; ');

export type PreferCheck = { ok: true; prefer?: string } | { ok: false; message: string };

/**
 * Checks the `Prefer` header against the operation's examples. A name without a code is completed
 * with the one status that documents it (Prism would look only in the success response); an unknown
 * status or name gets a message listing what the operation documents.
 */
export function checkPrefer(header: string | undefined, op: OperationExamples): PreferCheck {
  const prefer = parsePrefer(header);
  const { code, example } = prefer;
  const how = 'Send Prefer: code=<status>, example=<name>.';
  if (code !== undefined && !op.statuses.some((s) => s.status === code))
    return {
      ok: false,
      message: `Unknown status ${code} for ${op.operationId}: it documents ${oneLine(op)}. ${how}`,
    };
  if (example === undefined) return { ok: true };
  const holders = op.statuses.filter((s) => s.names.includes(example) && (code === undefined || s.status === code));
  if (holders.length === 0)
    return {
      ok: false,
      message: `Unknown example "${example}"${code ? ` for status ${code}` : ''} of ${op.operationId}: its examples are ${oneLine(op)}. ${how}`,
    };
  if (code !== undefined || holders.length > 1) return { ok: true };
  return {
    ok: true,
    prefer: Object.entries({ ...prefer, code: holders[0]!.status })
      .map(([k, v]) => `${k}=${v}`)
      .join(', '),
  };
}
