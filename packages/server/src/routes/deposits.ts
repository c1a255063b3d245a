// Deposits and instant sell (seed: "Deposit and instant sell"). The handlers read the caller's
// platform inventory through the platform adapter and hand it to the engine with the deposit
// secret; the body mappings may be JSON strings, parsed by the engine's rules.
import {
  createDeposit,
  depositList,
  depositTradeStatus,
  KEYS_MESSAGES,
  type MappingMessages,
  type Offered,
  parseMapping,
  parsePrices,
  VALUE_MESSAGES,
} from '../domain/deposits.ts';
import { createInstantSell, instantSellInfo } from '../domain/instant-sell.ts';
import { DEPOSIT } from '../domain/messages.ts';
import { ok } from '../domain/tx.ts';
import { type AreaRoutes, type Ctx, callerOf } from '../http/context.ts';

type Game = Offered['game'];

/** POST /instantsell/trade takes the deposit's inputs with `prices` for `value`. */
const PRICES_MESSAGES = {
  invalidJson: DEPOSIT.invalidPricesJson,
  notObject: DEPOSIT.pricesNotObject,
  invalid: DEPOSIT.invalidPrices,
} as const satisfies MappingMessages;

/** What the caller offers: the body's `sent` prices and deposit keys, and their platform inventory. */
function offeredBy<J extends string, N extends string, I extends string>(
  ctx: Ctx<'postDepositTrade' | 'postInstantsellTrade'>,
  sent: unknown,
  messages: MappingMessages<J, N, I>,
) {
  const user = callerOf(ctx).user.platformId;
  const prices = parsePrices(sent, messages);
  if (!prices.ok) return prices;
  const keys = parseMapping(ctx.body.depositKeys, KEYS_MESSAGES);
  if (!keys.ok) return keys;
  const game: Game = ctx.body.game ?? 440; // the seed: `game` defaults to 440
  const platform = ctx.deps.platform.inventory(user, game);
  return ok<Offered>({
    user,
    game,
    prices: prices.value,
    keys: keys.value,
    platform,
    secret: ctx.deps.depositSecret,
    now: ctx.now,
  });
}

export const depositsRoutes = {
  getDepositGame(ctx) {
    const user = callerOf(ctx).user.platformId;
    const { game } = ctx.params;
    const platform = ctx.deps.platform.inventory(user, game);
    return ok(ctx.read((tx) => depositList(tx, user, game, platform, ctx.deps.depositSecret, ctx.now)));
  },

  async postDepositTrade(ctx) {
    const offered = offeredBy(ctx, ctx.body.value, VALUE_MESSAGES);
    return offered.ok ? ctx.run((tx) => createDeposit(tx, offered.value)) : offered;
  },

  getDepositTradeStatusTradeid(ctx) {
    const user = callerOf(ctx).user.platformId;
    return ctx.read((tx) => depositTradeStatus(tx, user, ctx.params.tradeid));
  },

  getInstantsellGame(ctx) {
    const user = callerOf(ctx).user.platformId;
    const { game } = ctx.params;
    const platform = ctx.deps.platform.inventory(user, game);
    const info = ctx.read((tx) => instantSellInfo(tx, user, game, platform, ctx.deps.depositSecret));
    return info.ok ? ok({ informations: info.value }) : info;
  },

  async postInstantsellTrade(ctx) {
    const offered = offeredBy(ctx, ctx.body.prices, PRICES_MESSAGES);
    // The gate has refused any method outside the document's enum (InstantSellTradeRequest).
    const method: string = ctx.body.method ?? 'balance';
    return offered.ok ? ctx.run((tx) => createInstantSell(tx, { ...offered.value, method })) : offered;
  },
} satisfies AreaRoutes;
