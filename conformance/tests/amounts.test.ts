// Every computed amount at inputs where the rounding shows (issue 22): for each amount two inputs,
// one where floor and round differ and one where round and ceil differ, so floor, round and ceil
// give three different pairs of answers and only the documented rounding passes. The expected
// value is computed here from the inputs (money.ts): the seller's 95 percent of a sale (floor), into
// a buy order (the rest of the order's unit back to the buyer), through a cart or an instant sell;
// the cashout fees of 2 and 1.5 percent (ceil) and their refund; the average sale price (rounded to
// the cent). Every comparison states the two values (`assertValue`, `assertBalance`).
import { beforeAll, describe, it } from 'vitest';
import { content, needsHelpers, resetIfPossible } from '../src/kit/behavior.ts';
import { helpers, sentOffer, session } from '../src/kit/helpers.ts';
import { assertThat, assertValue } from '../src/kit/http.ts';
import { assertBalance, sellerProceeds } from '../src/kit/money.ts';
import { rule, sides } from '../src/kit/rule.ts';
import { getAs, postAs } from '../src/kit/user-calls.ts';
import { needsVariant } from '../src/kit/variants.ts';

beforeAll(resetIfPossible);

const ROUNDING = sides(['floor ≠ round', 'round ≠ ceil'], 'R-LIMIT-SELLER-FEE', 'R-TRANS-ITEM-SELL');

/** Prices whose 95 percent falls at .5 and above (floor ≠ round) and below .5 (round ≠ ceil). */
const SALE_PRICES = [
  [1990, 'floor 1890, round 1891, ceil 1891'],
  [1999, 'floor 1899, round 1899, ceil 1900'],
] as const;
/** The buy order the sales below fill: its unit value is above every sale price, so the buyer gets a rest back. */
const ORDER_VALUE = 2100;

describe('the seller is credited floor(price x 95 / 100)', () => {
  for (const [price, rounding] of SALE_PRICES)
    it(
      `Given an asset listed at ${price} into a buy order at ${ORDER_VALUE} (${rounding}), the seller is credited the floor and the buyer pays the price, the rest of the unit back`,
      sides(
        ['floor ≠ round', 'round ≠ ceil'],
        'R-LIMIT-SELLER-FEE',
        'R-TRANS-ITEM-SELL',
        'R-TRANS-BUYORDER-FILL',
        'R-BUYORDER-RESERVE',
      ),
      async (ctx) => {
        await needsHelpers(ctx);
        const item = await helpers.item({ name: `Rounding Sale ${price}`, game: 440 });
        const buyer = await session({ balance: 5000 }, '198.51.100.91');
        const seller = await session({}, '198.51.100.92');
        await postAs(buyer, '/item/buyorder', { itemid: item.id, value: ORDER_VALUE, amount: 1 });
        await assertBalance(buyer, 5000 - ORDER_VALUE, `the order reserves ${ORDER_VALUE}`, 5000);
        const asset = await helpers.asset({ owner: seller.platformId, itemId: item.id });
        const sold = await postAs(seller, '/inventory/price', { ids: asset.assetId, price });
        assertThat(sold, sold.status === 200, 'the asset sells into the order');
        await assertBalance(seller, sellerProceeds(price), `the seller is credited floor(${price} x 95 / 100)`, 0);
        await assertBalance(
          buyer,
          5000 - price,
          `the buyer pays ${price}: the rest of the unit (${ORDER_VALUE - price}) is released`,
          5000 - ORDER_VALUE,
        );
      },
    );

  // The document's lowest price (POST /inventory/price: "1 to 5,000,000"): a sale at 1 cent is a
  // sale, whose floor(95 %) credits the seller nothing and leaves the whole cent as the fee.
  it(
    'Given an asset listed at 1 cent, the lowest price, into a buy order at 1, it sells: the buyer pays 1 and the seller is credited floor(0.95) = 0',
    rule('R-LIMIT-SELLER-FEE', 'R-TRANS-ITEM-SELL', 'R-TRANS-BUYORDER-FILL'),
    async (ctx) => {
      await needsHelpers(ctx);
      const item = await helpers.item({ name: 'Rounding Sale 1', game: 440 });
      const buyer = await session({ balance: 10 }, '198.51.100.98');
      const seller = await session({}, '198.51.100.99');
      await postAs(buyer, '/item/buyorder', { itemid: item.id, value: 1, amount: 1 });
      const asset = await helpers.asset({ owner: seller.platformId, itemId: item.id });
      const sold = await postAs(seller, '/inventory/price', { ids: asset.assetId, price: 1 });
      assertThat(sold, sold.status === 200, 'the asset priced at 1 cent is accepted');
      // A listing instead of a sale leaves both balances as a sale does (1 cent reserved, 0
      // credited): the seller's sales history tells them apart.
      const sales = content(await getAs(seller, '/user/getSalesHistory')) as { sales: { price: number }[] };
      assertThat(
        sold,
        sales.sales.map((r) => r.price).join() === '1',
        `one sale at 1 cent (got ${JSON.stringify(sales.sales)})`,
      );
      await assertBalance(buyer, 9, 'the buyer paid 1 cent out of the order', 9);
      await assertBalance(seller, 0, 'the seller is credited floor(1 x 95 / 100) = 0', 0);
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
        await assertBalance(seller, sellerProceeds(price), `the seller is credited floor(${price} x 95 / 100)`, 0);
        await assertBalance(buyer, 5000 - price, `the buyer pays ${price}`, 5000);
      },
    );

  for (const [price, rounding] of SALE_PRICES)
    it(
      `Given an instant sell into a bid at ${price} (${rounding}), the seller is credited the floor`,
      sides(['floor ≠ round', 'round ≠ ceil'], 'R-INSTANT-SELL', 'R-LIMIT-SELLER-FEE'),
      async (ctx) => {
        await needsHelpers(ctx);
        const item = await helpers.item({ name: `Rounding Instant ${price}`, game: 440 });
        const bidder = await helpers.user({ balance: 5000 });
        await helpers.buyOrder({ owner: bidder.platformId, itemId: item.id, price, amount: 1 });
        const seller = await session({}, '198.51.100.97');
        const assetId = `4299${price}${seller.platformId.slice(-6)}`;
        await helpers.platformInventory({
          platformId: seller.platformId,
          game: 440,
          assets: [{ assetId, itemId: item.id }],
        });
        const info = await getAs(seller, '/instantsell/440');
        const depositKeys = content(info).informations.depositkey as Record<string, string>;
        const trade = await postAs(seller, '/instantsell/trade', { prices: { [assetId]: price }, depositKeys });
        const offer = await sentOffer(trade, seller.platformId);
        const settled = await helpers.settleOffer(offer.tradeId, 'accept');
        assertValue(trade, settled.status, 3, 'the accepted instant sell completes');
        await assertBalance(seller, sellerProceeds(price), `the seller is credited floor(${price} x 95 / 100)`, 0);
      },
    );
});

/** Amounts whose fee falls at .5 and above (floor ≠ round) and below .5 (round ≠ ceil), per provider. */
const CASHOUTS = [
  ['provider_a', 5030, 'floor 100, round 101, ceil 101'],
  ['provider_a', 5001, 'floor 100, round 100, ceil 101'],
  ['provider_b', 5040, 'floor 75, round 76, ceil 76'],
  ['provider_b', 5010, 'floor 75, round 75, ceil 76'],
] as const;
/** The document's fee: ceil(amount x rate), 2 percent for provider_a and 1.5 percent for provider_b. */
const feeOf = (method: 'provider_a' | 'provider_b', amount: number) =>
  Math.ceil((amount * (method === 'provider_a' ? 20 : 15)) / 1000);

describe('cashout fees are rounded up, and a failed cashout refunds amount + fee', () => {
  for (const [method, amount, rounding] of CASHOUTS)
    it(
      `Given a ${method} cashout of ${amount} (fee ${rounding}), the fee is ${feeOf(method, amount)}, debited on top and refunded when it fails`,
      sides(['floor ≠ round', 'round ≠ ceil'], 'R-LIMIT-CASHOUT', 'R-CASHOUT-RULES', 'R-TRANS-CASHOUT-FAILED'),
      async (ctx) => {
        await needsHelpers(ctx);
        const fee = feeOf(method, amount);
        const me = await session({ balance: 20_000, paymentMethods: [method] });
        const asked = await postAs(me, '/cashout/process', { amount, method });
        assertThat(asked, asked.status === 200, 'the cashout is accepted');
        assertValue(asked, content(asked).fee, fee, `the fee is ceil(${amount} x rate)`);
        await assertBalance(me, 20_000 - amount - fee, 'amount + fee is debited', 20_000);
        await helpers.payment(content(asked).cashoutId, 'failed');
        await assertBalance(me, 20_000, 'a failed cashout refunds amount + fee', 20_000 - amount - fee);
      },
    );
});

/** Three sales whose mean falls below .5 (round ≠ ceil) and above .5 (floor ≠ round). */
const AVERAGES = [
  [[100, 100, 101], 'floor 100, round 100, ceil 101'],
  [[100, 101, 101], 'floor 100, round 101, ceil 101'],
] as const;
const averageOf = (prices: readonly number[]) => Math.round(prices.reduce((a, b) => a + b, 0) / prices.length);

describe('the average sale price is rounded to the cent', () => {
  for (const [prices, rounding] of AVERAGES)
    it(
      `Given sales at ${prices.join(', ')} (mean: ${rounding}), GET /user/getSalesInfos averages ${averageOf(prices)}`,
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
        assertValue(
          summary,
          content(summary).averageSalePrice,
          averageOf(prices),
          `three sales totalling ${prices.reduce((a, b) => a + b, 0)} average (rounded to the cent)`,
        );
      },
    );
});
