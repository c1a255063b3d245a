import { describe, expect, it } from 'vitest';
import { auditMoney } from './audit.ts';
import {
  createDeposit,
  depositKey,
  depositList,
  depositTradeStatus,
  KEYS_MESSAGES,
  parseMapping,
  parsePrices,
  VALUE_MESSAGES,
} from './deposits.ts';
import { DEPOSIT } from './messages.ts';
import { settleTrade } from './settlement.ts';
import { testState } from './test-state.fixture.ts';

const SECRET = 'unit-secret';

function world() {
  const t = testState();
  const me = t.user();
  const hat = t.item({ name: 'Unit Hat', image: '/hat.png' });
  const platform = [
    { assetId: '40000000001', itemId: hat.id, wear: 0.12 },
    { assetId: '40000000002', itemId: hat.id },
  ];
  const keys = {
    '40000000001': depositKey(SECRET, '40000000001', me.platformId),
    '40000000002': depositKey(SECRET, '40000000002', me.platformId),
  };
  const offer = (prices: Record<string, number>, k: Record<string, unknown> = keys) =>
    createDeposit(t.tx, { user: me.platformId, game: 440, prices, keys: k, platform, secret: SECRET, now: t.now });
  return { t, me, hat, platform, keys, offer };
}

describe('depositKey', () => {
  it('is the SHA-256 hex of secret, asset ID and user ID concatenated', () => {
    // sha256("s" + "1" + "2") = sha256("s12")
    expect(depositKey('s', '1', '2')).toBe(depositKey('s1', '', '2'));
    expect(depositKey('s', '1', '2')).toMatch(/^[0-9a-f]{64}$/);
    expect(depositKey('s', '1', '2')).not.toBe(depositKey('s', '1', '3'));
  });
});

describe('parseMapping / parsePrices', () => {
  it.each([
    ['{bad', DEPOSIT.invalidValueJson],
    ['[1]', DEPOSIT.valueNotObject],
    [5, DEPOSIT.valueNotObject],
    [{}, DEPOSIT.invalidValue],
    [{ abc: 5 }, DEPOSIT.invalidValue],
    [{ '1': 0 }, DEPOSIT.invalidValue],
    [{ '1': 5_000_001 }, DEPOSIT.invalidValue],
    [{ '1': 1.5 }, DEPOSIT.invalidValue],
  ])('refuses %j with %s', (raw, message) => {
    expect(parsePrices(raw, VALUE_MESSAGES)).toEqual({ ok: false, error: message });
  });

  it('accepts an object or the JSON string of one', () => {
    expect(parsePrices('{"12":100}', VALUE_MESSAGES)).toEqual({ ok: true, value: { '12': 100 } });
    expect(parseMapping({ '12': 'k' }, KEYS_MESSAGES)).toEqual({ ok: true, value: { '12': 'k' } });
    expect(parseMapping('"x"', KEYS_MESSAGES)).toEqual({ ok: false, error: DEPOSIT.invalidDepositKeys });
  });
});

describe('depositList', () => {
  it('gives every platform asset of a known item its key and the market hints', () => {
    const { t, me, hat, platform } = world();
    const seller = t.user();
    t.asset({ owner: seller.platformId, itemId: hat.id, state: 1, price: 800 });
    t.order(seller.platformId, hat.id, 300, 1);
    const list = depositList(t.tx, me.platformId, 440, [...platform, { assetId: '1', itemId: 999 }], SECRET, t.now);
    expect(
      list.informations.map((r) => [r.assetId, r.lowest_sale_price, r.lowest_buy_order, r.suggested_price, r.disabled]),
    ).toEqual([
      ['40000000001', 800, 300, 799, false],
      ['40000000002', 800, 300, 799, false],
    ]);
    expect(list.depositkey['40000000001']).toBe(depositKey(SECRET, '40000000001', me.platformId));
  });
});

describe('createDeposit and its settlement', () => {
  it('names the first asset whose key does not match', () => {
    const { offer, keys } = world();
    expect(offer({ '40000000001': 5, '40000000002': 6 }, { ...keys, '40000000002': 'x' })).toEqual({
      ok: false,
      error: DEPOSIT.invalidDepositKey('40000000002'),
    });
  });

  it('refuses an asset not on the platform, or already offered', () => {
    const { offer, me, t } = world();
    const key = depositKey(SECRET, '49', me.platformId);
    expect(offer({ '49': 5 }, { '49': key })).toEqual({ ok: false, error: DEPOSIT.saveFailed });
    expect(offer({ '40000000001': 5 }).ok).toBe(true);
    expect(offer({ '40000000001': 5 })).toEqual({ ok: false, error: DEPOSIT.saveFailed });
    expect(t.tx.effects.filter((e) => e.kind === 'offer')).toHaveLength(1);
  });

  it('accepted: lists the assets at their prices with their attributes, moving no money', () => {
    const { offer, t, me, hat } = world();
    const made = offer({ '40000000001': 1500, '40000000002': 1700 });
    if (!made.ok) throw new Error('refused');
    const trade = t.tx.get('trades', made.value.id)!;
    expect(settleTrade(t.tx, trade.tradeId, 'accept', t.now + 5).ok).toBe(true);
    const assets = t.tx.all('assets').filter((a) => a.user === me.platformId);
    expect(assets.map((a) => [a.assetId, a.item_id, a.state, a.price, a.wear])).toEqual([
      ['40000000001', hat.id, 1, 1500, 0.12],
      ['40000000002', hat.id, 1, 1700, null],
    ]);
    const status = depositTradeStatus(t.tx, me.platformId, made.value.id);
    expect(status.ok && [status.value.status, status.value.trade?.updated]).toEqual([3, String(t.now + 5)]);
    t.tx.commit();
    expect(auditMoney(t.tx.state).problems).toEqual([]);
    expect(settleTrade(t.tx, trade.tradeId, 'accept', t.now).ok).toBe(false);
  });

  it('declined: fails (-1) and stores nothing', () => {
    const { offer, t, me } = world();
    const made = offer({ '40000000001': 1500 });
    if (!made.ok) throw new Error('refused');
    settleTrade(t.tx, t.tx.get('trades', made.value.id)!.tradeId, 'decline', t.now);
    expect(t.tx.all('assets')).toEqual([]);
    const status = depositTradeStatus(t.tx, me.platformId, made.value.id);
    expect(status.ok && status.value.statusText).toBe('failed');
  });

  it('status: notFound for an unknown or non-deposit trade, forbidden for another user', () => {
    const { offer, t } = world();
    const made = offer({ '40000000001': 1500 });
    if (!made.ok) throw new Error('refused');
    expect(depositTradeStatus(t.tx, 'someone', made.value.id)).toEqual({
      ok: false,
      error: { type: 'forbidden', message: DEPOSIT.depositTradeForbidden },
    });
    expect(depositTradeStatus(t.tx, 'someone', 99)).toEqual({
      ok: false,
      error: { type: 'notFound', message: DEPOSIT.depositTradeNotFound },
    });
  });
});

describe('an accepted deposit and the buy orders', () => {
  it('sells at once into a buy order at or above the deposit price, at the deposit price; lists the rest', () => {
    const { offer, t, me, hat } = world();
    const buyer = t.user();
    t.order(buyer.platformId, hat.id, 1600, 1);
    const made = offer({ '40000000001': 1500, '40000000002': 1700 });
    if (!made.ok) throw new Error('refused');
    const before = t.tx.get('users', me.platformId)!.balance;
    settleTrade(t.tx, t.tx.get('trades', made.value.id)!.tradeId, 'accept', t.now);
    const [first, second] = ['40000000001', '40000000002'].map(
      (id) => t.tx.all('assets').find((a) => a.assetId === id)!,
    );
    expect([first!.user, first!.state]).toEqual([buyer.platformId, 0]);
    expect([second!.user, second!.state, second!.price]).toEqual([me.platformId, 1, 1700]);
    expect(t.tx.get('users', me.platformId)!.balance).toBe(before + Math.floor((1500 * 95) / 100));
    t.tx.commit();
    expect(auditMoney(t.tx.state).problems).toEqual([]);
  });
});
