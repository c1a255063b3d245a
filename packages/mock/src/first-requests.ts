// The first requests `npm run mock` suggests, as data: printed as curl lines by the CLI and sent
// by its test, so the suggestions cannot go stale when the document changes.
export interface FirstRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: unknown;
  /** What the mock answers: the static example, or the documented error asked for by name. */
  expect: { status: number; message?: string };
}

export const FIRST_REQUESTS: FirstRequest[] = [
  { method: 'GET', path: '/item/listing/1', headers: {}, expect: { status: 200 } },
  {
    method: 'POST',
    path: '/item/buyorder',
    headers: {
      Authorization: 'Bearer any',
      'Content-Type': 'application/json',
      Prefer: 'code=300, example=notEnoughBalance',
    },
    body: { itemid: 1, value: 150, amount: 1 },
    expect: { status: 300, message: 'Not enough balance' },
  },
];

/** A request as a curl line a reader can paste. */
export function curl(base: string, r: FirstRequest): string {
  const parts = [`curl -s${r.method === 'GET' ? '' : ` -X ${r.method}`} ${base}${r.path}`];
  for (const [name, value] of Object.entries(r.headers)) parts.push(`-H '${name}: ${value}'`);
  if (r.body !== undefined) parts.push(`-d '${JSON.stringify(r.body)}'`);
  return parts.join(' \\\n       ');
}
