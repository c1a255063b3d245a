// What a backend team writes first in the generated project (server-stubs.test.ts): the login, the
// balance and the count of an item's listings, in place of their stubs, keeping each stub's stamp.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const IMPORTS = `import { issueToken } from '../auth.ts';
import { MESSAGES } from '../generated/messages.ts';
import { callerOf, fail, ok } from '../handler.ts';
import { BLOCKED_COUNTRIES } from '../settings.ts';
`;

/** The handlers, by file and operationId: the body of `(ctx) => ...` that replaces `notImplemented`. */
export const FILLED: Record<string, Record<string, string>> = {
  'src/handlers/authentication.ts': {
    // No rate limit here: the app counts the login's two (refused keys per IP, attempts per key).
    postUserLogin: `{
  const user = ctx.store.userByApiKey(ctx.body.apiKey);
  if (!user) return fail(MESSAGES.postUserLogin.INVALID_API_KEY, 403);
  const country = ctx.geoip.countryOf(ctx.ip);
  if (BLOCKED_COUNTRIES.includes(country)) return fail(MESSAGES.postUserLogin.COUNTRY_BLOCKED, 403);
  return ok({ jwt: issueToken(ctx.store, user, ctx.ip, ctx.now, country) });
}`,
  },
  'src/handlers/account.ts': {
    getUserBalance: 'ok({ balance: callerOf(ctx).user.balance })',
  },
  'src/handlers/items.ts': {
    getItemListingCountItem:
      'ok({ count: ctx.store.assets((a) => a.itemId === ctx.params.item && a.state === 1).length })',
  },
};

/** The operations FILLED implements. */
export const FILLED_OPERATIONS = Object.values(FILLED).flatMap((handlers) => Object.keys(handlers));

/** Writes the handlers of FILLED into the generated project at `app`. */
export function fillHandlers(app: string): void {
  for (const [file, handlers] of Object.entries(FILLED)) {
    let text = readFileSync(join(app, file), 'utf8');
    for (const [id, body] of Object.entries(handlers)) {
      const stub = new RegExp(`(export const ${id}: Handler<'${id}', '[0-9a-f]+'> = )notImplemented;`);
      if (!stub.test(text)) throw new Error(`${file} has no stub of ${id}`);
      text = text.replace(stub, (_, head: string) => `${head}(ctx) => ${body};`);
    }
    writeFileSync(join(app, file), text.replace(/^(import .*\n)/m, `$1${IMPORTS}`));
  }
}
