// E-mail events (seed: "Events": six kinds, each switchable per user, and a master switch; unread
// offers and trades readable through GET /user/notifications). The seed does not say which
// operation sends which kind, so the suite demands what the kinds' names settle and the switches,
// never the reference's mapping (kit/mail.ts says what exactly). This file follows users through a
// deposit, a withdrawal and a sale, counting the e-mails of each step under its switches and reading
// the notifications after each step. The outbox's `kind` strings are the target's own (the helper
// contract names none): a kind is told by its switch, never read.
import { beforeAll, describe, it } from 'vitest';
import { content, needsHelpers, resetIfPossible } from '../src/kit/behavior.ts';
import { helpers, type session } from '../src/kit/helpers.ts';
import { type Answer, assertThat, assertValue, pinsMeaning, setUpOk } from '../src/kit/http.ts';
import {
  assertKindInFlow,
  assertKindSent,
  type MailKind,
  mailsOfEvent,
  mailsSentBy,
  type Party,
  party,
  switchMail,
} from '../src/kit/mail.ts';
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

/** The steps of a round: the bot's offers and their acceptance, and a sale to the seller and to the order's owner. */
type Step = 'offer' | 'deposit' | 'withdrawOffer' | 'withdrawal' | 'sold' | 'filled';
/** The kind a round switches off at each step (every other kind and the master switch on). */
type Plan = Partial<Record<Step, MailKind>>;
/** The e-mails each step sent, and the exchange a failure about it is pinned on. */
type Round = Partial<Record<Step, { sent: number; answer: Answer }>>;

/** One step of a round: `me` switched as `plan` says for `step`, its e-mails counted. */
async function step(round: Round, at: Step, me: Party, plan: Plan, event: () => Promise<Answer>): Promise<Answer> {
  const { answer, sent } = await mailsOfEvent([[me, { off: plan[at] }]], event);
  round[at] = { sent: sent[0]!, answer };
  return answer;
}

/** A new user deposits two assets (the bot's offer, then accepted), each step counted into `round`. */
async function depositTwo(n: number, plan: Plan, round: Round) {
  const me = await party(`events-${n}@example.com`);
  const item = await helpers.item({ name: `Evented Key ${n}`, game: 440 });
  const [first, second] = [1, 2].map((i) => String(41_000_000_000 + n * 10 + i)) as [string, string];
  await helpers.platformInventory({
    platformId: me.platformId,
    game: 440,
    assets: [
      { assetId: first, itemId: item.id },
      { assetId: second, itemId: item.id },
    ],
  });
  const keys = content(await getAs(me, '/deposit/440')).depositkey as Record<string, string>;
  const deposit = await step(round, 'offer', me, plan, async () => {
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
  await step(round, 'deposit', me, plan, async () => {
    await helpers.settleOffer(offer!.tradeId, 'accept');
    return deposit;
  });
  const settled = await notifications(me);
  assertThat(
    deposit,
    settled.tradesCount === 1 && settled.trades[0]?.status === 3,
    'an unread trade notification, completed',
  );
  return { me, item };
}

/**
 * One user deposits two assets, withdraws one (the offer, then accepted) and sells another into a
 * buyer's order, each step's e-mails counted under `plan`; the notifications are read after the
 * steps (the switches are for e-mail only, so every round has them).
 */
async function depositWithdrawSell(n: number, plan: Plan): Promise<Round> {
  const round: Round = {};
  const { me, item } = await depositTwo(n, plan, round);
  const buyer = await party(`events-${n}-buyer@example.com`, 5_000);
  const onSale = content(await getAs(me, '/inventory/onSale')) as { items: { ids: string }[] };
  const withdraw = await step(round, 'withdrawOffer', me, plan, async () => {
    const made = await postAs(me, '/inventory/withdraw', { ids: onSale.items[0]!.ids.split(',')[0] });
    assertThat(made, made.status === 200, 'one asset is withdrawn');
    return made;
  });
  const withdrawal = (await helpers.offers(me.platformId)).find((o) => o.kind === 'withdraw')!;
  await step(round, 'withdrawal', me, plan, async () => {
    await helpers.settleOffer(withdrawal.tradeId, 'accept');
    return withdraw;
  });

  setUpOk(await postAs(buyer, '/item/buyorder', { itemid: item.id, value: 900, amount: 1 }));
  const other = await helpers.asset({ owner: me.platformId, itemId: item.id });
  const { answer: sold, sent } = await mailsOfEvent(
    [
      [me, { off: plan.sold }],
      [buyer, { off: plan.filled }],
    ],
    async () => {
      const listed = await postAs(me, '/inventory/price', { ids: other.assetId, price: 900 });
      setUpOk(listed);
      return listed;
    },
  );
  round.sold = { sent: sent[0]!, answer: sold };
  round.filled = { sent: sent[1]!, answer: sold };
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
  return round;
}

describe('the e-mail kinds and notifications of trades and sales', () => {
  it('Given a user who deposits, withdraws and sells, each kind is sent and its switch lowers the e-mails: depositCompleted for the accepted deposit, itemSold to the seller, buyOrderFilled to the order owner, tradeCompleted and offerReceived for one of the trades or offers they may name [R-EVENT-MAIL-KINDS, R-EVENT-NOTIFICATIONS, R-EVENT-BUYORDER-FILLED]', async (ctx) => {
    await needsHelpers(ctx);
    // Every kind on; then each step with the kind its name may mean off; then one more deposit
    // with tradeCompleted off at its acceptance (a deposit is a trade that completed).
    const all = await depositWithdrawSell(0, {});
    const named = await depositWithdrawSell(1, {
      offer: 'offerReceived',
      deposit: 'depositCompleted',
      withdrawOffer: 'offerReceived',
      withdrawal: 'tradeCompleted',
      sold: 'itemSold',
      filled: 'buyOrderFilled',
    });
    const traded: Round = {};
    await depositTwo(2, { deposit: 'tradeCompleted' }, traded);
    const pair = (s: Step, off: Round, what: string) => ({ what, on: all[s]!.sent, off: off[s]!.sent });
    const deposit = pair('deposit', named, 'the deposit accepted');
    assertKindSent(named.deposit!.answer, deposit.what, 'depositCompleted', deposit.on, deposit.off);
    const sold = pair('sold', named, 'a sale into a buy order, to the seller');
    assertKindSent(named.sold!.answer, sold.what, 'itemSold', sold.on, sold.off);
    const filled = pair('filled', named, 'a sale into a buy order, to the order owner');
    assertKindSent(named.filled!.answer, filled.what, 'buyOrderFilled', filled.on, filled.off);
    assertKindInFlow(named.withdrawal!.answer, 'tradeCompleted', [
      pair('deposit', traded, 'the deposit accepted'),
      pair('withdrawal', named, 'the withdrawal accepted'),
    ]);
    assertKindInFlow(named.withdrawOffer!.answer, 'offerReceived', [
      pair('offer', named, 'the deposit (the bot offer)'),
      pair('withdrawOffer', named, 'the withdrawal (the bot offer)'),
    ]);
    pinsMeaning(
      'GET /user/notifications offers',
      'GET /user/notifications offersCount',
      'GET /user/notifications trades',
      'GET /user/notifications tradesCount',
      'GET /user/notifications alerts',
      'GET /user/notifications alertCount',
    );
    // Each step's e-mails are counted per address with every kind on and with one kind off (every
    // other kind, marketing too, on): a kind never sent, sent to the other party, an ignored switch
    // or one that another kind's switch turns off reads differently. What the names leave open
    // (a deposit that also sends tradeCompleted, offers of one trade only) reads either way.
    pinsMeaning(
      'event email: offerReceived',
      'event email: depositCompleted',
      'event email: tradeCompleted',
      'event email: itemSold',
      'event email: buyOrderFilled',
    );
  });

  it('Given the master switch off and every kind on, a deposit, its acceptance and a sale into an order (its owner switched off too) send no e-mail, and the notifications are still there [R-EVENT-MAIL-SWITCH-ALL, R-EVENT-NOTIFICATIONS]', async (ctx) => {
    await needsHelpers(ctx);
    const me = await party('quiet@example.com');
    const buyer = await party('quiet-buyer@example.com', 2_000);
    for (const p of [me, buyer]) await switchMail(p, { master: false });
    const item = await helpers.item({ name: 'Quiet Key', game: 440 });
    await helpers.platformInventory({
      platformId: me.platformId,
      game: 440,
      assets: [{ assetId: '42000000001', itemId: item.id }],
    });
    const keys = content(await getAs(me, '/deposit/440')).depositkey as Record<string, string>;
    let deposit: Answer | undefined;
    const made = await mailsSentBy([me.address], async () => {
      deposit = await postAs(me, '/deposit/trade', { value: { '42000000001': 500 }, depositKeys: keys });
    });
    assertThat(deposit!, deposit!.status === 200, 'the deposit is made');
    assertValue(deposit!, made, [0], 'the master switch off: no e-mail for the bot offer');
    assertThat(deposit!, (await notifications(me)).offersCount === 1, 'the offer notification is there');
    const [offer] = await helpers.offers(me.platformId);
    const accepted = await mailsSentBy([me.address], () => helpers.settleOffer(offer!.tradeId, 'accept'));
    assertValue(deposit!, accepted, [0], 'the master switch off: no e-mail for the accepted deposit');

    const sold = await helpers.item({ name: 'Quiet Hat', game: 440 });
    setUpOk(await postAs(buyer, '/item/buyorder', { itemid: sold.id, value: 800, amount: 1 }));
    const asset = await helpers.asset({ owner: me.platformId, itemId: sold.id });
    let listed: Answer | undefined;
    const sale = await mailsSentBy([me.address, buyer.address], async () => {
      listed = await postAs(me, '/inventory/price', { ids: asset.assetId, price: 800 });
    });
    setUpOk(listed!);
    assertValue(listed!, sale, [0, 0], 'the master switch off: no e-mail to the seller nor to the order owner');
    const alerts = content(await getAs(buyer, '/user/notifications')) as { alertCount: number };
    assertThat(listed!, alerts.alertCount === 1, 'the order owner has its notification');
  });
});
