// The meaning matrix (issue 32), beside the rule matrix of rules.ts: every field of every documented
// success answer, and every documented event, needs a passing test whose data makes the nearest
// wrong readings give another value (counts vs units, open vs settled, gross vs net, first vs last,
// by creation vs by activity, ID vs slug, the period's unit). A shape check cannot tell a total that
// counts open requests from one that counts settled ones: only data where the two differ can.
//
// The fields are read from the document (the success response schemas), so a field the document
// gains appears in `missingMeanings` by itself. A test says which meanings its data pins with
// `pinsMeaning('GET /user/getCashoutHistory totalCashedOut')` (http.ts), the way it names its rules.
import { readFileSync } from 'node:fs';
import { deref, type Json, operations } from '../oracle/document.ts';

/** The envelope's own keys: their meaning is the envelope's, checked on every answer. */
const ENVELOPE = new Set(['err', 'success', 'content', 'status', 'data']);

/** The property paths a schema describes (`cashouts[].amount`), through refs, allOf/oneOf/anyOf and items. */
function fieldPaths(schema: Json, prefix: string, out: Set<string>, seen: Set<Json> = new Set()): void {
  const s = deref(schema);
  if (!s || typeof s !== 'object' || seen.has(s)) return;
  const inner = new Set(seen).add(s);
  for (const k of ['allOf', 'oneOf', 'anyOf'] as const) for (const x of s[k] ?? []) fieldPaths(x, prefix, out, inner);
  if (s.items) fieldPaths(s.items, `${prefix}[]`, out, inner);
  for (const x of s.prefixItems ?? []) fieldPaths(x, `${prefix}[]`, out, inner);
  if (s.additionalProperties && typeof s.additionalProperties === 'object')
    fieldPaths(s.additionalProperties, `${prefix}.*`, out, inner);
  for (const [name, sub] of Object.entries(s.properties ?? {})) {
    const path = prefix ? `${prefix}.${name}` : name;
    out.add(path);
    fieldPaths(sub, path, out, inner);
  }
}

/**
 * Every field of every documented success answer, as `METHOD /path field` with the field's path
 * under the envelope's payload (`GET /user/getCashoutHistory cashouts[].amount`).
 */
export function documentedFields(): string[] {
  const keys = new Set<string>();
  for (const o of operations) {
    const ok = deref(o.op.responses?.['200']);
    for (const media of Object.values<Json>(ok?.content ?? {})) {
      const paths = new Set<string>();
      fieldPaths(media.schema, '', paths);
      for (const p of paths) {
        const [top, ...rest] = p.split('.');
        const field = top === 'content' || top === 'data' ? rest.join('.') : ENVELOPE.has(p) ? '' : p;
        if (field) keys.add(`${o.name} ${field}`);
      }
    }
  }
  return [...keys].sort();
}

/**
 * The events the document promises besides answers (seed "Events", "Administration", "User
 * account"), as the outbox test helper shows them: each needs a test whose data tells it from its
 * nearest miss (sent for the other transition, to another address, twice, or not at all).
 */
export const EVENTS: readonly string[] = [
  'event moderation: POST /admin/ban bans',
  'event moderation: POST /admin/ban unbans (time 0)',
  'event moderation: POST /admin/support/post',
  'event affiliate: POST /user/setAffiliates',
  'event email: POST /user/email/change/request (the code to the new address)',
  'event email: cashout stages',
  'event email: buyOrderFilled',
  'event email: itemSold',
  'event email: tradeCompleted',
  'event email: offerReceived',
  'event email: depositCompleted',
  'event email: marketing',
];

/**
 * Meanings the document leaves open, and why: the suite accepts each reading there, so no test
 * can tell the readings apart (and none must).
 */
const WORDING_OPEN =
  'a confirmation whose wording neither the seed nor the document fixes (the description says only that it confirms; examples are not normative): any text is accepted';

export const OPEN_MEANINGS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(
    [
      'POST /admin/support/post message',
      'POST /admin/support/status message',
      'POST /admin/support/block message',
      'POST /admin/ban message',
      'POST /inventory/withdraw message',
      'POST /cashout/process message',
      'POST /cashout/link message',
      'POST /cashout/unlink message',
      'POST /cashout/cancel message',
      'POST /support/create message',
      'POST /support/post message',
    ].map((key) => [key, WORDING_OPEN]),
  ),
  ...Object.fromEntries(
    [
      'assetId',
      'cartId',
      'class',
      'color',
      'count',
      'craftable',
      'effect',
      'festivized',
      'game',
      'image',
      'inspect',
      'item_id',
      'killstreaker',
      'level',
      'name',
      'paint',
      'parts',
      'price',
      'quality',
      'rarity',
      'sheen',
      'slot',
      'spell',
      'type_platform',
      'url',
      'values',
    ].map((f) => [
      `POST /cart/checkout cart[].${f}`,
      'the cart after a checkout is always empty (document: `maxItems: 0`, "The cart after checkout (always empty)"): its rows never carry a value; `POST /cart/checkout cart` itself is pinned empty',
    ]),
  ),
  ...Object.fromEntries(
    ['GET /giveaways list[]', 'GET /giveaways/my list[]', 'POST /giveaways/create giveaway'].flatMap((at) =>
      ['platformId', 'name', 'image'].map((f) => [
        `${at}.winner.${f}`,
        'a winner is drawn at the end, and this answer shows only giveaways not yet ended (the active lists, the creation): its `winner` is always null (pinned so), its fields never carry a value',
      ]),
    ),
  ),
  ...Object.fromEntries(
    ['GET /cart/get', 'POST /cart/add', 'POST /cart/bulk', 'POST /cart/remove', 'POST /cart/update'].flatMap((op) =>
      ['level', 'festivized', 'inspect', 'values'].map((f) => [
        `${op} cart[].${f}`,
        'a cart row "may also carry" it (seed: Cart row) but no resource of the seed holds it for an item or an asset, and no route or test helper sets it (the asset helper of shared/test-helpers.md takes no such attribute): no data gives two rows different values, so any value of the documented type is accepted',
      ]),
    ),
  ),
  ...Object.fromEntries(
    [
      'GET /item/listing/{item} content[]',
      'GET /item/listing/{item}/{userid} content[]',
      'GET /item/details/fromid/{backpackid} informations',
      'GET /item/cs/details/fromid/{backpackid} informations',
    ].flatMap((at) => [
      ...['html', 'getImage', 'values'].map((f) => [
        `${at}.${f}`,
        'the seed gives only a label ("custom HTML description", "custom image reference", "extra inspection values") and no rule of where the value comes from: no route sets it and the asset helper of shared/test-helpers.md takes no such attribute (the reference keeps the attribute a deposited platform asset had: its own choice), so any value of the documented type is accepted',
      ]),
      [
        `${at}.ip`,
        'the seed says only that it is omitted for non-admin callers (checked: R-LISTING-SELLER-HIDDEN) and the document "IP address recorded with the entry", not whose or when (the depositor, the lister, the buyer, the last update) nor whether a bought asset keeps one; no helper sets it, so any IP address, or an empty string (none recorded), is accepted (market-data.test.ts refuses other text on a bought asset)',
      ],
    ]),
  ),
  ...Object.fromEntries(
    [
      'GET /item/listing/{item} content[]',
      'GET /item/listing/{item}/{userid} content[]',
      'GET /item/details/fromid/{backpackid} informations',
      'GET /item/cs/details/fromid/{backpackid} informations',
    ].map((at) => [
      `${at}.bot`,
      'the holding bot shows in no other record (trade offers and trades carry no bot, no helper sets one), so no data tells the bot that holds an asset from another: a target reading another value everywhere alike passes. The listing test checks only that each listing names the bot its backpack entry names',
    ]),
  ),
  'GET /infos/prices/buyorderAndLowestSales format':
    'the envelope A description gives `format` no value (x-gaps: "The value of `format` and the type of `lastUpdate` in the envelope A variant are not shown"); the document asks only for a string describing the entry layout',
  ...Object.fromEntries(
    ['GET /item/pricing/{item} pricing', 'GET /item/pricing/bulk items[].pricing'].map((at) => [
      `${at}.suggested_price`,
      'the seed gives only "suggested listing price" and the document leaves its computation open (x-gaps: "... how the suggested price is computed, are not shown"; ADR 0004 is the choice of the reference): any number is accepted',
    ]),
  ),
  'GET /item/pricing/{item} from_cache':
    'a field of the bulk endpoint (seed: Pricing, "from_cache ... (bulk endpoint)"; document: the single-item endpoint carries `cached` instead): the single-item answer gives it no meaning, its `cached` is pinned',
  'GET /item/pricing/bulk items[].cached':
    'a field of the single-item endpoint (seed: Pricing, "cached ... (single-item endpoint)"; document: the bulk endpoint carries `from_cache` instead): a bulk row gives it no meaning, its `from_cache` is pinned',
  'GET /user/infos informations.message':
    'whether `message` is the bio text or the unread message count is not settled by the seed (x-gaps: its descriptions differ); both types are allowed (an integer must be the unread message count: support.test.ts checks it, and skips for a bio text)',
  'GET /user/ipList values[].isp':
    'the document says only "Internet service provider resolved from the IP", and no test helper plays an ISP lookup (shared/test-helpers.md resolves a country only): no value is right or wrong',
  'GET /user/ipList values[].location':
    'the document says only "Location resolved from the IP", without its form (a country code, a country name, a city), so no value is required',
  'GET /user/2FA/create qrCode':
    'the document says only "URL of the QR code image to scan with an authenticator app": it must parse as a URL (checked), but neither its form nor what the image encodes is fixed, and nothing reads it back (the code comes from `base32`, which is pinned)',
  'GET /user/generateCSVToken token':
    'the seed says only "a SHA-512 token for CSV export authentication": the digest\'s input is not shown and no documented route takes the token back, so beyond its form (128 hex digits, a new one each time, checked) no value is right or wrong',
  'GET /user/getBalanceHistory values[].description':
    'the document says only "Human-readable description of the change": its wording has no rule (the change itself is pinned by type, amount and balance)',
  'GET /user/getBalanceHistory transactions[].description':
    'the document says only "Human-readable description of the change": its wording has no rule (the change itself is pinned by type, amount and balance)',
  'GET /infos/admin data[].role':
    'the seed shows staff entries `{name, platformId, role}` without the role values (the document: "the seed does not list the values"), so no value is required',
  'GET /user/getCashoutHistory cashouts[].transactionId':
    'the document says "the payment provider\'s transaction reference, when the provider has issued one": the payments test helper reports an outcome only, never a reference, so neither the value nor when one exists is fixed',
  'POST /cashout/cancel cashout.transactionId':
    'the document says "the payment provider\'s transaction reference, when the provider has issued one": the payments test helper reports an outcome only, never a reference, so neither the value nor when one exists is fixed',
  'POST /user/setTradeUrl validated':
    'the document says "whether the platform confirmed the URL", and no test helper plays the platform\'s confirmation (shared/test-helpers.md has none): a confirmed URL cannot be told from an unconfirmed one',
  'GET /deposit/{game} informations[].suggested_price':
    'a pricing hint the document gives no rule for (DepositRow: "Suggested listing price in cents (pricing hint)", the row being this project\'s design): no value is required',
  'GET /deposit/{game} informations[].highStock':
    'the document says "true when the marketplace already holds many assets of the item" without saying how many is many: deposits.test.ts checks only that an item the marketplace holds none of is not high stock, and accepts either value once it holds some',
  'GET /user/getSalesHistory sales[].status':
    'the seed names a sale record `status` without its values (the document: "values not shown by the seed; for example `completed`"), so no value is required',
  'event email: marketing':
    'the seed names the kind and its switch only, and no operation of the seed or the document is marketing ("Which operation triggers which e-mail kind ... not shown"): whether a target ever sends one, and when, is open, so nothing is demanded of it (its switch is stored and echoed: R-MAIL-SETTINGS)',
  'GET /user/getPurchaseHistory purchases[].status':
    'the seed names a purchase record `status` without its values (the document: "values not shown by the seed; for example `completed`"), so no value is required',
};

/**
 * The fields and events no test pins yet (issue 32 lands the matrix before it is full): a
 * committed list that may only shrink. `src/testing/suite.test.ts` requires it to be exactly what the
 * reference run leaves unpinned, so a test that pins one must take it off the list, and a field
 * the document gains must be pinned or added here on purpose.
 */
export function notYetPinned(): ReadonlySet<string> {
  // Read when asked: the published package compiles this module but ships no .txt beside it.
  return new Set(
    readFileSync(new URL('./meanings-not-yet.txt', import.meta.url), 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#')),
  );
}

/** Every meaning the matrix needs pinned: the documented fields and the events. */
export const allMeanings = (): string[] => [...documentedFields(), ...EVENTS];

/**
 * The fields and events no passing test pins, the open ones aside: `GET /user/getCashoutHistory
 * totalCashedOut`. A failed or skipped test pins nothing.
 */
export function missingMeanings(
  outcomes: { state: 'passed' | 'failed' | 'skipped'; meanings?: string[] }[],
  all: string[] = allMeanings(),
): string[] {
  const pinned = new Set(outcomes.flatMap((o) => (o.state === 'passed' ? (o.meanings ?? []) : [])));
  return all.filter((m) => !pinned.has(m) && !(m in OPEN_MEANINGS));
}

const PINS = /pinsMeaning\(\s*((?:'[^']*'\s*,?\s*)+)\)/g;

/** The meanings a test file's source pins (`pinsMeaning('…', '…')`), for the check against misspelt keys. */
export function pinnedIn(source: string): string[] {
  return [...source.matchAll(PINS)].flatMap((m) => [...m[1]!.matchAll(/'([^']*)'/g)].map((q) => q[1]!));
}
