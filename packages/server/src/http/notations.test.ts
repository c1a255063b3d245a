// Every notation the document states is one the server reads (ADR 22). A form body sent in the
// notation of each operation's Encoding Object (`notifications[marketing]=false`, `items=1&items=2`),
// and an object also in OpenAPI's default notation (`marketing=false`), gets the very answer its
// JSON example gets; a query parameter marked `allowReserved` is not refused for an unencoded
// reserved character. Both lists come from the document, so a new form field or parameter is
// covered without touching this file.

import type { Json } from '@marketplace/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../routes/test-harness.fixture.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const deref = (node: Json): Json => {
  let at = node;
  while (at?.$ref)
    at = at.$ref
      .slice(2)
      .split('/')
      .reduce((n: Json, k: string) => n?.[k.replaceAll('~1', '/')], t.deps.document);
  return at;
};

interface Operation {
  method: string;
  path: string;
  id: string;
  op: Json;
}
const operations = (): Operation[] =>
  Object.entries(t.deps.document.paths as Json).flatMap(([path, item]) =>
    Object.entries(item as Json)
      .filter(([m]) => m === 'get' || m === 'post')
      .map(([method, op]) => ({ method: method.toUpperCase(), path, id: (op as Json).operationId, op })),
  );

const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/** The JSON body as a form, each field in `notation`: what the Encoding Object says, or OpenAPI's default. */
function formOf(body: Record<string, unknown>, encoding: Json, notation: 'documented' | 'default'): string {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(body)) {
    const style = encoding?.[name]?.style;
    if (Array.isArray(value)) for (const v of value) form.append(name, text(v));
    else if (value && typeof value === 'object' && style === 'deepObject')
      for (const [k, v] of Object.entries(value)) form.append(notation === 'documented' ? `${name}[${k}]` : k, text(v));
    else form.append(name, text(value));
  }
  return form.toString();
}

async function answer(op: Operation, jwt: string, contentType: string, body: string) {
  const res = await fetch(`${t.baseUrl}${op.path}`, {
    method: op.method,
    headers: { authorization: `Bearer ${jwt}`, 'content-type': contentType },
    body,
  });
  return [res.status, await res.json()];
}

describe('form bodies with object and array fields', () => {
  const encoded = () =>
    operations().flatMap((o) => {
      const form = o.op.requestBody?.content?.['application/x-www-form-urlencoded'];
      return form?.encoding ? [{ ...o, encoding: form.encoding }] : [];
    });

  it('are all found (every Encoding Object of the document)', () => {
    expect(encoded().map((o) => o.id)).toEqual(
      expect.arrayContaining(['postUserSetMailNotification', 'postUserSetPrivacySetting', 'postGiveawaysCreate']),
    );
  });

  it('get the answer of their JSON example in each documented notation', async () => {
    const checked: string[] = [];
    for (const o of encoded()) {
      const example = Object.values(o.op.requestBody.content['application/json'].examples ?? {})[0] as Json;
      const body = example?.value ?? deref(o.op.requestBody.content['application/json'].schema).examples?.[0];
      // The default notation spreads an object's keys: read for objects whose keys the schema lists, not for maps.
      const fields = deref(o.op.requestBody.content['application/x-www-form-urlencoded'].schema).properties ?? {};
      const objects = Object.entries(o.encoding).some(
        ([name, e]) =>
          (e as Json).style === 'deepObject' &&
          body?.[name] &&
          typeof body[name] === 'object' &&
          deref(fields[name])?.properties,
      );
      for (const notation of objects ? (['documented', 'default'] as const) : (['documented'] as const)) {
        // A fresh account each time: the JSON and the form request start from the same state.
        const jwt = await t.login((await t.user({ balance: 100_000 })).apiKey);
        const json = await answer(o, jwt, 'application/json', JSON.stringify(body));
        const jwt2 = await t.login((await t.user({ balance: 100_000 })).apiKey);
        const form = formOf(body, o.encoding, notation);
        expect(await answer(o, jwt2, 'application/x-www-form-urlencoded', form), `${o.id} ${form}`).toEqual(json);
        checked.push(`${o.id} ${notation}`);
      }
    }
    expect(checked).toEqual(
      expect.arrayContaining([
        'postUserSetMailNotification documented',
        'postUserSetMailNotification default',
        'postUserSetPrivacySetting default',
        'postDepositTrade documented',
      ]),
    );
  });

  it('read the default notation of the mail switches as the documented one', async () => {
    const jwt = await t.login((await t.user()).apiKey);
    const o = operations().find((x) => x.id === 'postUserSetMailNotification')!;
    const [status, body] = await answer(o, jwt, 'application/x-www-form-urlencoded', 'marketing=false&itemSold=false');
    expect([status, body.content.notifications]).toMatchObject([
      200,
      { marketing: false, itemSold: false, tradeCompleted: true },
    ]);
  });
});

describe('query parameters marked allowReserved', () => {
  it('are not refused for an unencoded reserved character', async () => {
    const jwt = await t.login((await t.user({ admin: true })).apiKey);
    const checked: string[] = [];
    for (const o of operations()) {
      const params: Json[] = (o.op.parameters ?? []).map(deref);
      for (const p of params.filter((x) => x.in === 'query' && x.allowReserved)) {
        const path = o.path.replace(/\{(\w+)\}/g, (_m, n) => String(params.find((x) => x.name === n)?.example ?? 1));
        const query = params
          .filter((x) => x.in === 'query' && x.required && x !== p)
          .map((x) => `${x.name}=${encodeURIComponent(String(x.example ?? deref(x.schema).enum?.[0] ?? 1))}`);
        const example = String(p.example ?? 'abc');
        // The example as is when it already holds one (`1,2`), else with a `!` (not encoded by encodeURIComponent).
        const value = /[:/?#[\]@!$&'()*+,;=]/.test(example) ? example : `${example}!`;
        const res = await fetch(`${t.baseUrl}${path}?${[...query, `${p.name}=${value}`].join('&')}`, {
          headers: { authorization: `Bearer ${jwt}` },
        });
        const body = await res.json();
        const refusals = (o.op['x-error-messages'] ?? [])
          .filter((m: Json) => m.field === p.name && m.reason === 'invalid')
          .map((m: Json) => m.message);
        expect(refusals.concat(`Invalid ${p.name} parameter`), `${o.id} ${p.name}=${value}`).not.toContain(
          body.content ?? body.message,
        );
        expect(res.status, `${o.id} ${p.name}=${value}`).toBeLessThan(500);
        checked.push(`${o.id} ${p.name}`);
      }
    }
    expect(checked).toEqual(
      expect.arrayContaining(['getUserGetTransactionDetails transactionId', 'getUserGetSalesChartInfos chart']),
    );
  });
});
