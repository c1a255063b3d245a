// E-mail events (seed: "Events": six switchable kinds; unread offers and trades readable through
// GET /user/notifications). The seed does not say which operation sends which kind; the
// document's MailNotifications does, and this file follows one user through a deposit, a
// withdrawal and a sale, reading the outbox and the notifications after each step.
import { beforeAll, describe, it } from 'vitest';
import { content, needsHelpers, resetIfPossible } from '../src/kit/behavior.ts';
import { helpers, session } from '../src/kit/helpers.ts';
import { assertThat, pinsMeaning, setUpOk } from '../src/kit/http.ts';
import { getAs, postAs } from '../src/kit/user-calls.ts';
import { needsVariant } from '../src/kit/variants.ts';

beforeAll(resetIfPossible);

type Me = Awaited<ReturnType<typeof session>>;
const kindsSent = async (to: string) => (await helpers.outbox('email', to)).map((m) => m.kind);
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

describe('the e-mail kinds and notifications of trades and sales', () => {
  it('Given a user who deposits, withdraws and sells, each step sends its kind, and only its kind [R-EVENT-MAIL-KINDS, R-EVENT-NOTIFICATIONS, R-EVENT-BUYORDER-FILLED]', async (ctx) => {
    await needsHelpers(ctx);
    const address = 'events@example.com';
    const me = await session({ email: address });
    const item = await helpers.item({ name: 'Evented Key', game: 440 });
    await helpers.platformInventory({
      platformId: me.platformId,
      game: 440,
      assets: [
        { assetId: '41000000001', itemId: item.id },
        { assetId: '41000000002', itemId: item.id },
      ],
    });
    const keys = content(await getAs(me, '/deposit/440')).depositkey as Record<string, string>;
    const deposit = await postAs(me, '/deposit/trade', {
      value: { '41000000001': 900, '41000000002': 900 },
      depositKeys: keys,
    });
    assertThat(deposit, deposit.status === 200, 'the deposit is made');
    assertThat(deposit, (await kindsSent(address)).join() === 'offerReceived', 'the bot offer: offerReceived');
    const offered = await notifications(me);
    const [offer] = await helpers.offers(me.platformId);
    assertThat(
      deposit,
      offered.offersCount === 1 && offered.offers[0]?.tradeId === offer?.tradeId,
      'an unread offer notification names the platform offer',
    );

    await helpers.settleOffer(offer!.tradeId, 'accept');
    assertThat(
      deposit,
      (await kindsSent(address)).join() === 'offerReceived,depositCompleted',
      'accepted: depositCompleted',
    );
    const settled = await notifications(me);
    assertThat(
      deposit,
      settled.tradesCount === 1 && settled.trades[0]?.status === 3,
      'an unread trade notification, completed',
    );

    const onSale = content(await getAs(me, '/inventory/onSale')) as { items: { ids: string }[] };
    const withdraw = await postAs(me, '/inventory/withdraw', { ids: onSale.items[0]!.ids.split(',')[0] });
    assertThat(withdraw, withdraw.status === 200, 'one asset is withdrawn');
    const withdrawal = (await helpers.offers(me.platformId)).find((o) => o.kind === 'withdraw')!;
    await helpers.settleOffer(withdrawal.tradeId, 'accept');
    assertThat(
      withdraw,
      (await kindsSent(address)).join() === 'offerReceived,depositCompleted,offerReceived,tradeCompleted',
      'the withdrawal: offerReceived, then tradeCompleted once accepted',
    );

    const buyer = await session({ balance: 5_000, email: 'events-buyer@example.com' });
    const order = await postAs(buyer, '/item/buyorder', { itemid: item.id, value: 900, amount: 1 });
    const other = await helpers.asset({ owner: me.platformId, itemId: item.id });
    setUpOk(await postAs(me, '/inventory/price', { ids: other.assetId, price: 900 }));
    assertThat(order, (await kindsSent(address)).at(-1) === 'itemSold', 'a sale: itemSold to the seller');
    assertThat(
      order,
      (await kindsSent('events-buyer@example.com')).join() === 'buyOrderFilled',
      'buyOrderFilled to the buyer',
    );
    assertThat(order, !(await kindsSent(address)).includes('marketing'), 'no operation sends marketing');
    // Whose notifications, in which list: the seller has two bot offers and two settled trades
    // and no alert; the buyer, whose order was filled, one alert and nothing else.
    const seller = await notifications(me);
    const filled = content(await getAs(buyer, '/user/notifications'));
    assertThat(
      order,
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
    pinsMeaning(
      'GET /user/notifications offers',
      'GET /user/notifications offersCount',
      'GET /user/notifications trades',
      'GET /user/notifications tradesCount',
      'GET /user/notifications alerts',
      'GET /user/notifications alertCount',
    );
    // Each step's mails are read as a whole sequence: a kind sent for another step, twice, or to
    // the other party reads differently.
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
    assertThat(deposit, (await kindsSent(address)).length === 0, 'no offerReceived e-mail');
    assertThat(deposit, (await notifications(me)).offersCount === 1, 'the offer notification is there');
  });
});
