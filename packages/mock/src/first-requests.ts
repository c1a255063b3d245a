// The first requests `npm run mock` suggests, as data: printed as shell lines by the CLI and run
// by its test, so the suggestions cannot go stale when the document or the mock changes.
export interface FirstRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: unknown;
  /** The shell keeps the answer's `content.jwt` in `$JWT` (a login). */
  keepsJwt?: boolean;
  /** What the mock answers: the example, the documented error asked for by name, or a refusal. */
  expect: { status: number; message?: string };
}

/** Reads `content.jwt` from a login answer on stdin, with the node every machine with npm has. */
export const JWT_FROM_STDIN = `node -e 'let s="";process.stdin.on("data",(c)=>s+=c).on("end",()=>console.log(JSON.parse(s).content.jwt))'`;

const JSON_BODY = { 'Content-Type': 'application/json' };

export const FIRST_REQUESTS: FirstRequest[] = [
  { method: 'GET', path: '/item/listing/1', headers: {}, expect: { status: 200 } },
  {
    method: 'POST',
    path: '/user/login',
    headers: JSON_BODY,
    body: { apiKey: 'any key: the mock answers the example JWT' },
    keepsJwt: true,
    expect: { status: 200 },
  },
  {
    method: 'POST',
    path: '/item/buyorder',
    headers: { ...JSON_BODY, Authorization: 'Bearer $JWT', Prefer: 'code=300, example=notEnoughBalance' },
    body: { itemid: 1, value: 150, amount: 1 },
    expect: { status: 300, message: 'Not enough balance' },
  },
  {
    method: 'POST',
    path: '/item/buyorder',
    headers: { ...JSON_BODY, Authorization: 'Bearer $JWT' },
    body: { itemid: 1, value: 150 },
    expect: { status: 300, message: 'Value/Amount/Itemid must be a (positive) number' },
  },
  {
    method: 'GET',
    path: '/user/getBuyorder',
    headers: {},
    expect: { status: 403, message: 'forbidden' },
  },
];

/** A request as a shell line a reader can paste (`$JWT` is expanded by the shell). */
export function curl(base: string, r: FirstRequest): string {
  const quote = (s: string) => (s.includes('$JWT') ? `"${s}"` : `'${s}'`);
  const parts = [`curl -s${r.method === 'GET' ? '' : ` -X ${r.method}`} ${base}${r.path}`];
  for (const [name, value] of Object.entries(r.headers)) parts.push(`-H ${quote(`${name}: ${value}`)}`);
  if (r.body !== undefined) parts.push(`-d '${JSON.stringify(r.body)}'`);
  const line = parts.join(' ');
  return r.keepsJwt ? `JWT=$(${line} | ${JWT_FROM_STDIN})` : line;
}
