// Every computed amount at inputs where the rounding shows (issue 22): for each amount two inputs,
// one where floor and round differ and one where round and ceil differ, so floor, round and ceil
// give three different pairs of answers and only the documented rounding passes. The expected
// value is computed here from the inputs: the seller's 95 percent of a sale (floor), the cashout
// fees of 2 and 1.5 percent (ceil) and their refund, the average sale price (rounded to the cent).
import { beforeAll, describe, it } from 'vitest';
import { content, needsHelpers, resetIfPossible } from '../src/behavior.ts';
import { helpers, session } from '../src/helpers.ts';
import { assertThat } from '../src/http.ts';
import { sides } from '../src/rule.ts';
import { getAs, postAs } from '../src/user-calls.ts';
import { needsVariant } from '../src/variants.ts';

beforeAll(resetIfPossible);

type Me = Awaited<ReturnType<typeof session>>;
const balanceOf = async (me: Me) => content(await getAs(me, '/user/balance')).balance as number;
const ROUNDING = sides(['floor ≠ round', 'round ≠ ceil'], 'R-LIMIT-SELLER-FEE', 'R-TRANS-ITEM-SELL');

/** Prices whose 95 percent falls at .5 and above (floor ≠ round) and below .5 (round ≠ ceil). */
const SALE_PRICES = [
  [1990, 'floor 1890, round 1891, ceil 1891'],
  [1999, 'floor 1899, round 1899, ceil 1900'],
] as const;
const sellerShare = (price: number) => Math.floor((price * 95) / 100);

describe('the seller is credited floor(price x 95 / 100)', () => {
  for (const [price, rounding] of SALE_PRICES)
    it(
      `Given an asset listed at ${price} into a buy order (${rounding}), the seller is credited the floor and the buyer pays the price`,
      ROUNDING,
      async (ctx) => {
        await needsHelpers(ctx);
        const item = await helpers.item({ name: `Rounding Sale ${price}`, game: 440 });
        const buyer = await session({ balance: 5000 }, '198.51.100.91');
        const seller = await session({}, '198.51.100.92');
        await postAs(buyer, '/item/buyorder', { itemid: item.id, value: price, amount: 1 });
        const asset = await helpers.asset({ owner: seller.platformId, itemId: item.id });
        const sold = await postAs(seller, '/inventory/price', { ids: asset.assetId, price });
        assertThat(sold, sold.status === 200, 'the asset sells into the order');
        const credited = await getAs(seller, '/user/balance');
        assertThat(
          credited,
          content(credited).balance === sellerShare(price),
          `the seller is credited floor(${price} x 95 / 100) = ${sellerShare(price)}`,
        );
        const paid = await getAs(buyer, '/user/balance');
        assertThat(paid, content(paid).balance === 5000 - price, `the buyer pays ${price}: ${5000 - price} left`);
      },
    );

  for (const [price, rounding] of SALE_PRICES)
    it(
      `Given a cart of one asset at ${price} checked out (${rounding}), the seller is credited the floor`,
      ROUNDING,
      async (ctx) => {
        await needsHelpers(ctx);
        const item = await helpers.item({ name: `Rounding Cart ${price}`, game: 440 });
        const buyer = await session({ balance: 5000 }, '198.51.100.93');
        const seller = await session({}, '198.51.100.94');
        const asset = await helpers.asset({ owner: seller.platformId, itemId: item.id, state: 1, price });
        await postAs(buyer, '/cart/add', { assetId: asset.assetId });
        const bought = await postAs(buyer, '/cart/checkout', {});
        assertThat(bought, bought.status === 200, 'the cart is bought');
        const credited = await getAs(seller, '/user/balance');
        assertThat(
          credited,
          content(credited).balance === sellerShare(price),
          `the seller is credited floor(${price} x 95 / 100) = ${sellerShare(price)}`,
        );
        assertThat(bought, (await balanceOf(buyer)) === 5000 - price, `the buyer pays ${price}`);
      },
    );
});

/** Amounts whose fee falls at .5 and above (floor ≠ round) and below .5 (round ≠ ceil), per provider. */
const CASHOUTS = [
  ['provider_a', 5030, 'floor 100, round 101, ceil 101', 101],
  ['provider_a', 5001, 'floor 100, round 100, ceil 101', 101],
  ['provider_b', 5040, 'floor 75, round 76, ceil 76', 76],
  ['provider_b', 5010, 'floor 75, round 75, ceil 76', 76],
] as const;

describe('cashout fees are rounded up, and a failed cashout refunds amount + fee', () => {
  for (const [method, amount, rounding, fee] of CASHOUTS)
    it(
      `Given a ${method} cashout of ${amount} (fee ${rounding}), the fee is ${fee}, debited on top and refunded when it fails`,
      sides(['floor ≠ round', 'round ≠ ceil'], 'R-LIMIT-CASHOUT', 'R-CASHOUT-RULES', 'R-TRANS-CASHOUT-FAILED'),
      async (ctx) => {
        await needsHelpers(ctx);
        const me = await session({ balance: 20_000, paymentMethods: [method] });
        const asked = await postAs(me, '/cashout/process', { amount, method });
        assertThat(
          asked,
          asked.status === 200 && content(asked).fee === fee,
          `the fee is ceil(${amount} x rate) = ${fee}`,
        );
        const debited = await getAs(me, '/user/balance');
        assertThat(
          debited,
          content(debited).balance === 20_000 - amount - fee,
          `amount + fee is debited: ${20_000 - amount - fee} left`,
        );
        await helpers.payment(content(asked).cashoutId, 'failed');
        const refunded = await getAs(me, '/user/balance');
        assertThat(refunded, content(refunded).balance === 20_000, 'a failed cashout refunds amount + fee');
      },
    );
});

/** Three sales whose mean falls below .5 (round ≠ ceil) and above .5 (floor ≠ round). */
const AVERAGES = [
  [[100, 100, 101], 'floor 100, round 100, ceil 101', 100],
  [[100, 101, 101], 'floor 100, round 101, ceil 101', 101],
] as const;

describe('the average sale price is rounded to the cent', () => {
  for (const [prices, rounding, average] of AVERAGES)
    it(
      `Given sales at ${prices.join(', ')} (mean: ${rounding}), GET /user/getSalesInfos averages ${average}`,
      sides(['floor ≠ round', 'round ≠ ceil'], 'R-SALES-SUMMARY'),
      async (ctx) => {
        await needsHelpers(ctx);
        const item = await helpers.item({ name: `Rounding Average ${prices.join('-')}`, game: 440 });
        const buyer = await session({ balance: 5000 }, '198.51.100.95');
        const seller = await session({}, '198.51.100.96');
        await postAs(buyer, '/item/buyorder', { itemid: item.id, value: 200, amount: prices.length });
        for (const price of prices) {
          const asset = await helpers.asset({ owner: seller.platformId, itemId: item.id });
          await postAs(seller, '/inventory/price', { ids: asset.assetId, price });
        }
        const summary = await getAs(seller, '/user/getSalesInfos');
        needsVariant(summary, 'first'); // the other description has no average
        assertThat(
          summary,
          content(summary).averageSalePrice === average,
          `three sales totalling ${prices.reduce((a, b) => a + b, 0)} average ${average} cents`,
        );
      },
    );
});
