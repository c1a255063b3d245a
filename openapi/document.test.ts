// Checks of the bundled document against the seed and against this project's conventions
// (openapi/README.md). They read the committed bundle, so they also fail when it is stale.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seedMessages, seedOperations } from './seed.ts';

// biome-ignore lint/suspicious/noExplicitAny: walks an arbitrary JSON document
type Json = Record<string, any>;
const doc: Json = JSON.parse(readFileSync(resolve(import.meta.dirname, 'bundled/openapi.json'), 'utf8'));
const PERMISSIONS = ['None', 'API only', 'Connected + API', 'Connected + API + 2FA', 'admin'];

/** Follows a local `$ref` (`#/components/...`) once. */
function deref(node: Json): Json {
  if (typeof node?.$ref !== 'string') return node;
  return node.$ref
    .slice(2)
    .split('/')
    .reduce((at: Json, key: string) => at[key.replaceAll('~1', '/').replaceAll('~0', '~')], doc);
}

const operations = Object.entries(doc.paths as Json).flatMap(([path, item]) =>
  (['get', 'post', 'put', 'patch', 'delete'] as const)
    .filter((method) => item[method])
    .map((method) => ({ path, method, op: item[method] as Json, name: `${method.toUpperCase()} ${path}` })),
);
const byName = new Map(operations.map((o) => [o.name, o]));

/** Every error text an operation's examples carry (envelope A `content`, envelope B `message`). */
function exampleMessages(op: Json): string[] {
  const texts: string[] = [];
  for (const [status, response] of Object.entries(op.responses as Json)) {
    if (status.startsWith('2')) continue;
    for (const media of Object.values((deref(response as Json).content ?? {}) as Json)) {
      for (const example of Object.values((media.examples ?? {}) as Json)) {
        const value = deref(example as Json).value;
        const text = value?.content?.message ?? value?.content ?? value?.message;
        if (typeof text === 'string') texts.push(text);
      }
    }
  }
  return texts;
}

/** A message template (`invalid deposit key for assetId: <asset_id>`) as a regular expression. */
function templateRegex(message: string): RegExp {
  const escaped = message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/<[a-z_]+>/gi, '.+');
  return new RegExp(`^${escaped}$`);
}

describe('the bundled document', () => {
  it('is OpenAPI 3.1 and version 1.0.0 of the API', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.version).toBe('1.0.0');
  });

  it('has every operation of the seed, with its method and path', () => {
    const missing = seedOperations().filter((name) => !byName.has(name));
    expect(missing).toEqual([]);
  });

  it('has the extensions, tagged Extensions and marked x-extension', () => {
    for (const name of [
      'POST /cart/checkout',
      'POST /cashout/link',
      'POST /cashout/unlink',
      'GET /trades/active',
      'GET /trades/all',
      'GET /trades/resend',
      'GET /instantsell/{game}',
      'POST /instantsell/trade',
    ]) {
      expect(byName.get(name)?.op['x-extension'], name).toBe(true);
    }
    for (const { name, op } of operations) {
      expect(op.tags.includes('Extensions'), name).toBe(op['x-extension'] === true);
    }
  });

  it('carries every error message of the seed verbatim on its operation', () => {
    const absent: string[] = [];
    for (const { endpoints, message, type } of seedMessages()) {
      const found = endpoints.some((endpoint) => {
        const entries: Json[] = byName.get(endpoint)?.op['x-error-messages'] ?? [];
        return entries.some((e) => (type ? e.type === type : e.message.includes(message)));
      });
      if (!found) absent.push(`${endpoints.join(', ')}: ${type ?? message}`);
    }
    expect(absent).toEqual([]);
  });

  it('has the shared 429 and 500 answers with the seed wording', () => {
    const tooMany = doc.components.responses.TooManyRequests;
    expect(Object.keys(tooMany.headers).sort()).toEqual([
      'Retry-After',
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
    ]);
    expect(JSON.stringify(tooMany)).toContain('Rate limit exceeded. Retry after 42 seconds.');
    expect(JSON.stringify(doc.components.responses.InternalError)).toContain('Internal server error');
    expect(JSON.stringify(doc.components.responses.Forbidden)).toContain('"content":"forbidden"');
  });

  describe.each(operations)('$name', ({ path, op }) => {
    it('is named, tagged, summarised and states its permission', () => {
      expect(op.operationId).toMatch(/^(get|post)[A-Z][A-Za-z0-9]*$/);
      expect(op.tags?.length).toBeGreaterThan(0);
      expect(op.summary).toBeTruthy();
      expect(op.description).toBeTruthy();
      expect(PERMISSIONS).toContain(op['x-permission']);
    });

    it('declares security matching its permission', () => {
      const permission = op['x-permission'];
      const anonymous = op.security?.some((s: Json) => Object.keys(s).length === 0) ?? false;
      const bearer = op.security === undefined || op.security.some((s: Json) => 'bearerAuth' in s);
      if (permission === 'None')
        expect(op.security === undefined ? false : op.security.length === 0 || anonymous).toBe(true);
      else if (permission === 'API only') expect(anonymous && bearer).toBe(true);
      else expect(op.security === undefined || (!anonymous && bearer)).toBe(true);
    });

    it('references the shared 429 and 500 answers, and 403 when a session is required', () => {
      expect(op.responses['429']?.$ref).toBe('#/components/responses/TooManyRequests');
      expect(op.responses['500']?.$ref).toBe('#/components/responses/InternalError');
      if (!['None', 'API only'].includes(op['x-permission'])) {
        expect(op.responses['403']?.$ref).toBe('#/components/responses/Forbidden');
      }
      if (path.includes('{')) expect(op.responses['404']).toBeDefined();
    });

    it('types its success answer precisely, with an example', () => {
      const ok = deref(op.responses['200']);
      const media = Object.values(ok.content ?? {}) as Json[];
      expect(media.length).toBeGreaterThan(0);
      for (const m of media) {
        expect(m.schema).toBeDefined();
        expect(m.examples ?? m.example).toBeDefined();
      }
    });

    it('answers invalid input with a documented 300 and lists its messages', () => {
      const hasInput = Boolean(op.requestBody) || (op.parameters?.length ?? 0) > 0;
      if (!hasInput && !op['x-error-messages']) return;
      expect(op.responses['300'], 'a 300 response').toBeDefined();
      const listed: Json[] = op['x-error-messages'] ?? [];
      expect(listed.length).toBeGreaterThan(0);
      const examples = exampleMessages(op);
      for (const entry of listed) {
        expect(typeof entry.condition, entry.message).toBe('string');
        if (entry.reason) expect(['missing', 'invalid']).toContain(entry.reason);
        const pattern = templateRegex(entry.message);
        expect(
          examples.some((text) => pattern.test(text)),
          `an example for "${entry.message}"`,
        ).toBe(true);
      }
    });

    it('accepts JSON and form bodies', () => {
      if (!op.requestBody) return;
      const types = Object.keys(deref(op.requestBody).content);
      expect(types).toEqual(expect.arrayContaining(['application/json', 'application/x-www-form-urlencoded']));
    });
  });

  it('describes both variants where the seed gives two, and names the implemented one', () => {
    for (const name of [
      'GET /user/notifications',
      'GET /infos/prices/buyorderAndLowestSales',
      'GET /user/2FA/create',
      'POST /user/2FA/validate',
      'POST /user/reset2FA/ask',
      'POST /user/reset2FA/validate',
      'GET /user/getBalanceHistory',
      'GET /user/getSalesInfos',
    ]) {
      const op = byName.get(name)!.op;
      expect(op['x-reference-variant'], name).toBeTruthy();
      expect(JSON.stringify(op.responses['200']), name).toContain('"oneOf"');
    }
  });

  it('puts the route-specific rate limits on their operations', () => {
    for (const name of [
      'GET /item/prices',
      'POST /giveaways/create',
      'POST /giveaways/comment',
      'POST /user/email/change/request',
      'GET /public/price',
    ]) {
      const limit = byName.get(name)!.op['x-rate-limit'];
      expect(limit, name).toMatchObject({
        limit: expect.any(Number),
        window: expect.any(Number),
        scope: expect.any(String),
      });
    }
  });

  it('records the seed gaps on the operations they concern', () => {
    for (const name of [
      'GET /deposit/{game}',
      'GET /deposit/tradeStatus/{tradeid}',
      'GET /messages/list',
      'GET /admin/banList',
      'GET /admin/getSteamInventory',
      'GET /user/getTransactionHistory',
      'GET /giveaways',
      'GET /trades/active',
      'GET /trades/resend',
      'POST /cart/checkout',
    ]) {
      expect(byName.get(name)!.op['x-gaps']?.length, name).toBeGreaterThan(0);
    }
  });
});
