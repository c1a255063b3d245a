// The seed describes some operations twice; the document gives both descriptions as a `oneOf` and
// names the reference server's in `x-reference-variant` (ADR 3). A target may implement either, so
// the suite reads which one from the target's own answer (its shape, which `assertConforms` has
// already validated against the `oneOf`) and checks the rules of that description. A check only
// the other description allows ends as a skip naming both, never as a failure.
import { TestRunner } from 'vitest';
import type { Answer } from './http.ts';
import { skip } from './skip.ts';

/** Which of the seed's two descriptions of an operation an answer follows. */
export type Variant = 'first' | 'second';

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field
type Body = Record<string, any>;
const payload = (b: Body): Body | undefined => b?.content ?? b?.data;
const envelopeA = (b: Body) => b !== null && typeof b === 'object' && 'success' in b;

interface Described {
  /** The two descriptions, as the seed words them (first, second). */
  names: [string, string];
  /** Whether a body follows the second description (read from a 200 only unless noted). */
  isSecond: (body: Body) => boolean;
}

const twoFactor: Described = {
  names: ['the first seed description (envelope B)', 'the second seed description (envelope A)'],
  isSecond: envelopeA, // errors too: each variant answers in its own envelope
};

const DESCRIBED: Record<string, Described> = {
  'GET /user/2FA/create': twoFactor,
  'POST /user/2FA/validate': twoFactor,
  'POST /user/reset2FA/ask': twoFactor,
  'POST /user/reset2FA/validate': twoFactor,
  'GET /infos/prices/buyorderAndLowestSales': {
    names: ['the envelope B seed description (data.prices)', 'the envelope A seed description (content.prices string)'],
    isSecond: envelopeA,
  },
  'GET /user/notifications': {
    names: ['seed variant 1 (lists and their counts)', 'seed variant 2 (unread counts only)'],
    isSecond: (b) => payload(b)?.alertCount === undefined && payload(b)?.count !== undefined,
  },
  'GET /user/getSalesInfos': {
    names: ['the first seed description (sales totals)', 'the other seed description ({nb, price, user})'],
    isSecond: (b) => payload(b)?.totalSales === undefined && payload(b)?.nb !== undefined,
  },
  'GET /user/getBalanceHistory': {
    names: ['the {values, count} seed description', 'the {transactions, total, ...} seed description'],
    isSecond: (b) => payload(b)?.values === undefined && payload(b)?.transactions !== undefined,
  },
};

/** The operations the seed describes twice. */
export const describedTwice = Object.keys(DESCRIBED);

/** The description an answer of one of those operations follows (`first` for any other answer). */
export function variantOf(a: Answer): Variant {
  const d = a.operation ? DESCRIBED[a.operation] : undefined;
  return d?.isSecond(a.body as Body) ? 'second' : 'first';
}

/** The skip reason of a test that checks the other description than the target's. */
export function otherVariantReason(operation: string, theirs: Variant, checked: Variant): string {
  const names = DESCRIBED[operation]?.names ?? ['the first seed description', 'the second seed description'];
  const name = (v: Variant) => names[v === 'first' ? 0 : 1];
  return `the target implements ${name(theirs)} of ${operation}; this test checks ${name(checked)}`;
}

/**
 * Ends the running test as a skip unless `a` follows the `checked` description of its operation:
 * the suite cannot set up or check the rules of a description the target does not implement.
 */
export function needsVariant(a: Answer, checked: Variant): void {
  const theirs = variantOf(a);
  if (theirs === checked) return;
  const test = TestRunner.getCurrentTest();
  if (!test) throw new Error(`needsVariant outside a test (${a.operation})`);
  skip(test.context, otherVariantReason(a.operation ?? `${a.method} ${a.url}`, theirs, checked));
}

/**
 * One page of the balance history in either description: `values` or `transactions`, and `count`
 * or `total` (the `{values, count}` description may leave `count` out after page 0).
 */
export function balancePage(c: Body): { values: Body[]; count: number | undefined } {
  return { values: c?.values ?? c?.transactions ?? [], count: c?.count ?? c?.total };
}

/**
 * The compact price list in either description, as `{item_id, buyorder_price, lowest_sale_price}`
 * rows, from the payload (`data` or `content`): envelope B's `prices` array, or envelope A's
 * `itemId;buyOrderPrice;lowestSalePrice` string.
 */
export function compactPrices(
  c: Body | undefined,
): { item_id: number; buyorder_price: number; lowest_sale_price: number }[] | undefined {
  const prices = c?.prices;
  if (typeof prices !== 'string') return prices;
  return prices
    .split(',')
    .filter(Boolean)
    .map((entry) => {
      const [item_id, buyorder_price, lowest_sale_price] = entry.split(';').map(Number) as [number, number, number];
      return { item_id, buyorder_price, lowest_sale_price };
    });
}
