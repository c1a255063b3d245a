// Deposits and instant sell (seed: "Deposit and instant sell"). The handlers read the caller's
// platform inventory through the platform adapter and hand it to the engine with the deposit
// secret; the body mappings may be JSON strings, parsed by the engine's rules.
import {
  createDeposit,
  depositList,
  depositTradeStatus,
  KEYS_MESSAGES,
  parseMapping,
  parsePrices,
  VALUE_MESSAGES,
} from '../domain/deposits.ts';
import { ok } from '../domain/tx.ts';
import { type Ctx, callerOf, type Routes } from '../http/context.ts';

/** The seed: `game` defaults to 440. */
export const gameOf = (ctx: Ctx): 440 | 730 | 570 | 252490 => ctx.body.game ?? 440;

export const depositsRoutes: Routes = {
  getDepositGame(ctx) {
    const user = callerOf(ctx).user.platformId;
    const game = Number(ctx.params.game) as 440 | 730 | 570 | 252490;
    const platform = ctx.deps.platform.inventory(user, game);
    return ok(ctx.read((tx) => depositList(tx, user, game, platform, ctx.deps.depositSecret, ctx.now)));
  },

  async postDepositTrade(ctx) {
    const user = callerOf(ctx).user.platformId;
    const prices = parsePrices(ctx.body.value, VALUE_MESSAGES);
    if (!prices.ok) return prices;
    const keys = parseMapping(ctx.body.depositKeys, KEYS_MESSAGES);
    if (!keys.ok) return keys;
    const game = gameOf(ctx);
    const platform = ctx.deps.platform.inventory(user, game);
    const offered = {
      user,
      game,
      prices: prices.value,
      keys: keys.value,
      platform,
      secret: ctx.deps.depositSecret,
      now: ctx.now,
    };
    return ctx.run((tx) => createDeposit(tx, offered));
  },

  getDepositTradeStatusTradeid(ctx) {
    const user = callerOf(ctx).user.platformId;
    return ctx.read((tx) => depositTradeStatus(tx, user, Number(ctx.params.tradeid)));
  },
};
