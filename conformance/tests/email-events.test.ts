// E-mail events (seed: "Events": six kinds, each switchable per user; unread offers and trades
// readable through GET /user/notifications). The seed does not say which operation sends which
// kind; the document's MailNotifications does, and this file follows one user through a deposit,
// a withdrawal and a sale, reading the outbox and the notifications after each step. The outbox's
// `kind` strings are the target's own (the helper contract names none): a step's kind is told by
// its switch (kit/mail.ts), never read.
import { beforeAll, describe, it } from 'vitest';
import { content, needsHelpers, resetIfPossible } from '../src/kit/behavior.ts';
import { helpers, session } from '../src/kit/helpers.ts';
import { assertThat, pinsMeaning, setUpOk } from '../src/kit/http.ts';
import { assertMailOfKind, mailsTo, party } from '../src/kit/mail.ts';
import { getAs, postAs } from '../src/kit/user-calls.ts';
import { needsVariant } from '../src/kit/variants.ts';

beforeAll(resetIfPossible);

type Me = Awaited<ReturnType<typeof session>>;
/** The lists of seed variant 1 (variant 2 has only the unread alert and payment review counts). */
const notifications = async (me: Me) => {
  const answer = await getAs(me, '/user/notifications');
  needsVariant(answer, 'first');
  return content(answer) as {
    offers: { tradeId?: string }[];
    offersCount: number;
    trades: { trade?: number; status?: number }[];
    tradesCount: number;
  };
};

/**
 * One user deposits two assets (the bot's offer, then accepted), withdraws one (the offer, then
 * accepted) and sells another into a buyer's order, each step through `assertMailOfKind`; the
 * notifications are read after the steps (the switches are for e-mail only, so both rounds have them).
 */
async function depositWithdrawSell(round: number, quiet: boolean) {
  const me = await party(`events-${round}@example.com`);
  const buyer = await party(`events-${round}-buyer@example.com`, 5_000);
  const item = await helpers.item({ name: `Evented Key ${round}`, game: 440 });
  const [first, second] = [1, 2].map((n) => String(41_000_000_000 + round * 10 + n)) as [string, string];
  await helpers.platformInventory({
    platformId: me.platformId,
    game: 440,
    assets: [
      { assetId: first, itemId: item.id },
      { assetId: second, itemId: item.id },
    ],
  });
  const keys = content(await getAs(me, '/deposit/440')).depositkey as Record<string, string>;
  const deposit = await assertMailOfKind('the deposit (the bot offer)', [[me, 'offerReceived']], quiet, async () => {
    const made = await postAs(me, '/deposit/trade', { value: { [first]: 900, [second]: 900 }, depositKeys: keys });
    assertThat(made, made.status === 200, 'the deposit is made');
    return made;
  });
  const offered = await notifications(me);
  const [offer] = await helpers.offers(me.platformId);
  assertThat(
    deposit,
    offered.offersCount === 1 && offered.offers[0]?.tradeId === offer?.tradeId,
    'an unread offer notification names the platform offer',
  );

  await assertMailOfKind('the deposit accepted', [[me, 'depositCompleted']], quiet, async () => {
    await helpers.settleOffer(offer!.tradeId, 'accept');
    return deposit;
  });
  const settled = await notifications(me);
  assertThat(
    deposit,
    settled.tradesCount === 1 && settled.trades[0]?.status === 3,
    'an unread trade notification, completed',
  );

  const onSale = content(await getAs(me, '/inventory/onSale')) as { items: { ids: string }[] };
  const withdraw = await assertMailOfKind(
    'the withdrawal (the bot offer)',
    [[me, 'offerReceived']],
    quiet,
    async () => {
      const made = await postAs(me, '/inventory/withdraw', { ids: onSale.items[0]!.ids.split(',')[0] });
      assertThat(made, made.status === 200, 'one asset is withdrawn');
      return made;
    },
  );
  const withdrawal = (await helpers.offers(me.platformId)).find((o) => o.kind === 'withdraw')!;
  await assertMailOfKind('the withdrawal accepted', [[me, 'tradeCompleted']], quiet, async () => {
    await helpers.settleOffer(withdrawal.tradeId, 'accept');
    return withdraw;
  });

  const order = await postAs(buyer, '/item/buyorder', { itemid: item.id, value: 900, amount: 1 });
  setUpOk(order);
  const other = await helpers.asset({ owner: me.platformId, itemId: item.id });
  const sold = await assertMailOfKind(
    'a sale into the buy order',
    [
      [me, 'itemSold'],
      [buyer, 'buyOrderFilled'],
    ],
    quiet,
    async () => {
      const listed = await postAs(me, '/inventory/price', { ids: other.assetId, price: 900 });
      setUpOk(listed);
      return listed;
    },
  );
  // Whose notifications, in which list: the seller has two bot offers and two settled trades
  // and no alert; the buyer, whose order was filled, one alert and nothing else.
  const seller = await notifications(me);
  const filled = content(await getAs(buyer, '/user/notifications'));
  assertThat(
    sold,
    seller.offersCount === 2 &&
      seller.offers.length === 2 &&
      seller.tradesCount === 2 &&
      seller.trades.length === 2 &&
      (seller as unknown as { alertCount: number }).alertCount === 0 &&
      filled.alertCount === 1 &&
      filled.alerts.length === 1 &&
      filled.offersCount === 0 &&
      filled.tradesCount === 0,
    `seller: 2 offers, 2 trades, no alert (got ${JSON.stringify(seller)}); buyer: 1 alert only (got ${JSON.stringify(filled)})`,
  );
}

describe('the e-mail kinds and notifications of trades and sales', () => {
  it('Given a user who deposits, withdraws and sells, each step sends one e-mail, which its own kind switches off and no other kind does [R-EVENT-MAIL-KINDS, R-EVENT-NOTIFICATIONS, R-EVENT-BUYORDER-FILLED]', async (ctx) => {
    await needsHelpers(ctx);
    await depositWithdrawSell(0, false);
    await depositWithdrawSell(1, true);
    pinsMeaning(
      'GET /user/notifications offers',
      'GET /user/notifications offersCount',
      'GET /user/notifications trades',
      'GET /user/notifications tradesCount',
      'GET /user/notifications alerts',
      'GET /user/notifications alertCount',
    );
    // Each step's e-mails are counted per address, with its kind on and off while every other
    // kind (marketing too) stays on: a kind sent for another step, twice, to the other party, or
    // an e-mail no switch or another kind's switch turns off reads differently.
    pinsMeaning(
      'event email: offerReceived',
      'event email: depositCompleted',
      'event email: tradeCompleted',
      'event email: itemSold',
      'event email: buyOrderFilled',
      'event email: marketing (never sent)',
    );
  });

  it('Given offerReceived switched off, a deposit sends no e-mail but still a notification [R-EVENT-MAIL-KINDS]', async (ctx) => {
    await needsHelpers(ctx);
    const address = 'quiet@example.com';
    const me = await session({ email: address });
    const item = await helpers.item({ name: 'Quiet Key', game: 440 });
    await helpers.platformInventory({
      platformId: me.platformId,
      game: 440,
      assets: [{ assetId: '42000000001', itemId: item.id }],
    });
    const off = await postAs(me, '/user/setMailNotification', { notifications: { offerReceived: false } });
    assertThat(off, off.status === 200, 'the switch is set');
    const keys = content(await getAs(me, '/deposit/440')).depositkey as Record<string, string>;
    const deposit = await postAs(me, '/deposit/trade', { value: { '42000000001': 500 }, depositKeys: keys });
    assertThat(deposit, deposit.status === 200, 'the deposit is made');
    assertThat(deposit, (await mailsTo(address)) === 0, 'no offerReceived e-mail');
    assertThat(deposit, (await notifications(me)).offersCount === 1, 'the offer notification is there');
  });
});
