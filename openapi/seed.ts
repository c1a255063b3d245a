// Reads the operations and the error messages out of the seed (docs/seed/item-marketplace-api.md),
// so the document's checks compare against the source description itself, not a retyped copy.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const SEED_FILE = resolve(import.meta.dirname, '../docs/seed/item-marketplace-api.md');
const seed = () => readFileSync(SEED_FILE, 'utf8');

/** `:url` path parameters of the seed become OpenAPI's `{url}`. */
const openapiPath = (path: string) => path.replace(/:([A-Za-z]+)/g, '{$1}');

/**
 * Every operation of the seed as `METHOD /path`: the rows of its endpoint tables (both paths where
 * a row gives two), `POST /cashout/process` (described under its own heading), and the three
 * operations whose paths the seed does not show, at the paths this document gives them.
 */
export function seedOperations(): string[] {
  const names = new Set<string>();
  for (const match of seed().matchAll(/^\| (GET|POST) \| `([^`]+)`(?: and `([^`]+)`)?/gm)) {
    names.add(`${match[1]} ${openapiPath(match[2]!)}`);
    if (match[3]) names.add(`${match[1]} ${openapiPath(match[3])}`);
  }
  if (seed().includes('`POST /cashout/process` (Connected + API)')) names.add('POST /cashout/process');
  // Resend trade and the two instant-sell routes: described, paths "not shown".
  for (const name of ['GET /trades/resend', 'GET /instantsell/{game}', 'POST /instantsell/trade']) names.add(name);
  return [...names];
}

export interface SeedMessage {
  /** The operations the row names, as `METHOD /path`. */
  endpoints: string[];
  /** The message, verbatim (`<asset_id>` style placeholders kept). */
  message: string;
  /** For the deposit trade status row, which names response types instead of messages. */
  type?: string;
}

/** Expands the seed's shorthand `POST /item/buyorder`, `/update` into full operation names. */
function endpointsOf(cell: string): string[] {
  const [first, ...rest] = [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
  const [method, base] = first!.split(' ') as [string, string];
  const full = [openapiPath(base)];
  for (const tail of rest) {
    const parent = /\/(update|remove)$/.test(base) ? base.replace(/\/[^/]+$/, '') : base;
    full.push(openapiPath(`${parent}${tail}`));
  }
  return full.map((path) => `${method} ${path}`);
}

/**
 * The messages of the seed's "Messages by endpoint" table. A cell lists messages separated by
 * "; " or " / "; "(first variant)" / "(second variant)" annotate the 2FA variants, and inside a
 * second-variant group the messages are separated by ", ".
 */
export function seedMessages(): SeedMessage[] {
  const text = seed();
  const table = text.slice(text.indexOf('### Messages by endpoint'), text.indexOf('## Limits'));
  const rows = table.split('\n').filter((line) => line.startsWith('| `'));
  return rows.flatMap((row) => {
    const [endpointCell = '', messageCell = ''] = row.replace(/^\| /, '').split(' | ');
    const endpoints = endpointsOf(endpointCell);
    if (messageCell.startsWith('response types')) {
      return [...messageCell.matchAll(/`([^`]+)`/g)].map((m) => ({ endpoints, message: m[1]!, type: m[1]! }));
    }
    return messageCell.split('; ').flatMap((part) => {
      const second = part.endsWith(' (second variant)');
      const bare = part.replace(/ \((first|second) variant\)$/, '');
      return (second ? bare.split(', ') : [bare])
        .flatMap((m) => m.split(' / '))
        .map((message) => ({ endpoints, message }));
    });
  });
}
