// Negative data generated from the document's own schemas: for each operation, requests that
// break exactly one rule of a valid request (a required field missing, a wrong type, a number out
// of range, a string too long, a value outside its enum or pattern), plus a malformed JSON body and
// an unknown content type. The answer must be the documented error envelope, never a success and
// never a 5xx; where the document names the message for that field and failure, that message.
// A query parameter without `allowReserved` also gets its valid value with an unencoded reserved
// character (`!`, which encodeURIComponent leaves as is): the document's conditions for it (a
// number, an enum, a pattern) must exclude that value, and the refusal is its documented message.
// Every query parameter sent twice, or with brackets (`page[x]=1`), is a list or an object where one
// value is documented: its invalid message (the document's Conventions).
// A free-text body field (a string without enum, pattern, format or encoding) holding NUL or an
// unpaired surrogate gets `Invalid <field> parameter` (the document's Conventions, Text): valid
// JSON that no store can keep is refused alike whatever the target keeps its data in.
import { deref, type Json, type Operation } from '../oracle/document.ts';
import { type Built, buildRequest, parameterValue } from './requests.ts';

export interface NegativeCase {
  name: string;
  request: Built & { raw?: { contentType: string; body: string } };
  /** The message due whatever the operation lists (a global one of the document). */
  message?: string;
  /** The field and failure, to find the documented message. */
  field?: string;
  reason?: 'missing' | 'invalid';
  keyword?: string;
}

/** Values that break one constraint of a schema, with the keyword they break. */
export function breakers(schema: Json): { value: unknown; keyword: string; label: string }[] {
  const s = deref(schema) ?? {};
  if (s.oneOf || s.anyOf) {
    // A value of a JSON type none of the branches admits.
    const types = new Set((s.oneOf ?? s.anyOf).flatMap((b: Json) => [deref(b)?.type].flat()));
    const value = [12345, true, ['x'], 'x', { x: 1 }].find(
      (v) =>
        !types.has(Array.isArray(v) ? 'array' : typeof v === 'number' ? 'integer' : typeof v) &&
        !(typeof v === 'number' && types.has('number')),
    );
    return value === undefined ? [] : [{ value, keyword: 'type', label: 'a value of no documented type' }];
  }
  const type = Array.isArray(s.type) ? s.type.filter((t: string) => t !== 'null')[0] : s.type;
  const out: { value: unknown; keyword: string; label: string }[] = [];
  if (type === 'integer' || type === 'number') {
    out.push({ value: 'not-a-number', keyword: 'type', label: 'a string for a number' });
    if (typeof s.minimum === 'number')
      out.push({ value: s.minimum - 1, keyword: 'minimum', label: `${s.minimum - 1}, below the minimum` });
    if (typeof s.maximum === 'number')
      out.push({ value: s.maximum + 1, keyword: 'maximum', label: `${s.maximum + 1}, above the maximum` });
  } else if (type === 'string') {
    if (!s.enum) out.push({ value: { an: 'object' }, keyword: 'type', label: 'an object for a string' });
    if (typeof s.maxLength === 'number')
      out.push({
        value: 'x'.repeat(s.maxLength + 1),
        keyword: 'maxLength',
        label: `${s.maxLength + 1} characters, above maxLength`,
      });
    if (s.enum) out.push({ value: 'not-in-the-enum', keyword: 'enum', label: 'a value outside the enum' });
    // Outside the pattern but of an allowed length, so only the pattern fails.
    const length = Math.min(Math.max(s.minLength ?? 1, 3), s.maxLength ?? 3);
    const odd = '!'.repeat(length);
    if (s.pattern && !new RegExp(s.pattern).test(odd))
      out.push({ value: odd, keyword: 'pattern', label: 'a value outside the pattern' });
  } else if (type === 'boolean') {
    out.push({ value: 'maybe', keyword: 'type', label: 'a string for a boolean' });
  } else if (type === 'array') {
    out.push({ value: 'not-an-array', keyword: 'type', label: 'a string for an array' });
    if (typeof s.maxItems === 'number')
      out.push({
        value: Array.from({ length: s.maxItems + 1 }, () => deref(s.items)?.examples?.[0] ?? '1'),
        keyword: 'maxItems',
        label: `${s.maxItems + 1} items, above maxItems`,
      });
  } else if (type === 'object') {
    out.push({ value: 'not-an-object', keyword: 'type', label: 'a string for an object' });
  }
  return out;
}

/** Text no store can keep (Conventions, Text), by what the case name says. */
const UNSTORABLE: [string, string][] = [
  ['a string holding NUL', '\u0000'],
  ['a string holding an unpaired surrogate', '\ud800'],
];

/** A string schema whose only conditions are lengths: any other character would be valid in it. */
function isFreeText(schema: Json): boolean {
  const s = deref(schema) ?? {};
  return (
    s.type === 'string' &&
    !s.enum &&
    s.const === undefined &&
    !s.pattern &&
    !s.format &&
    !s.contentMediaType &&
    !s.contentEncoding
  );
}

/** Every negative case of an operation. */
export function negativeCases(o: Operation): NegativeCase[] {
  const base = buildRequest(o);
  const cases: NegativeCase[] = [];
  for (const raw of o.op.parameters ?? []) {
    const p = deref(raw);
    if (p.in === 'query' && p.required) {
      const { [p.name]: _gone, ...query } = base.query;
      cases.push({ name: `query ${p.name} missing`, request: { ...base, query }, field: p.name, reason: 'missing' });
    }
    for (const b of breakers(p.schema)) {
      if (typeof b.value === 'object') continue; // not expressible in a URL
      const value = String(b.value);
      if (p.in === 'path') {
        if (value === '') continue;
        const path = o.path
          .replace(`{${p.name}}`, encodeURIComponent(value))
          .replace(/\{(\w+)\}/g, (_m, n) => base.path.split('/')[o.path.split('/').indexOf(`{${n}}`)]!);
        cases.push({
          name: `path ${p.name}: ${b.label}`,
          request: { ...base, path },
          field: p.name,
          reason: 'invalid',
          keyword: b.keyword,
        });
      } else if (p.in === 'query') {
        cases.push({
          name: `query ${p.name}: ${b.label}`,
          request: { ...base, query: { ...base.query, [p.name]: value } },
          field: p.name,
          reason: 'invalid',
          keyword: b.keyword,
        });
      }
    }
    if (p.in === 'query') {
      // Written into the path: the client's query builder would encode the `!` and keep one value.
      const { [p.name]: _replaced, ...others } = base.query;
      const [name, value] = [encodeURIComponent(p.name), encodeURIComponent(String(parameterValue(p)))];
      const valid = `${name}=${value}`;
      const path = (...pairs: string[]) =>
        `${base.path}?${[new URLSearchParams(others).toString(), ...pairs].filter(Boolean).join('&')}`;
      if (!p.allowReserved)
        cases.push({
          name: `query ${p.name}: an unencoded reserved character`,
          request: { ...base, path: path(`${valid}!`), query: {} },
          field: p.name,
          reason: 'invalid',
        });
      cases.push({
        name: `query ${p.name}: sent twice`,
        request: { ...base, path: path(valid, valid), query: {} },
        field: p.name,
        reason: 'invalid',
      });
      // `name[x]=value`, brackets unencoded as the document writes them: an object where one value
      // is documented. `allowReserved` concerns the characters of a value, not a bracketed name, so
      // it is no exception; a `deepObject` parameter (none in the document's query) is sent so.
      if (p.style !== 'deepObject')
        cases.push({
          name: `query ${p.name}: with brackets`,
          request: { ...base, path: path(`${name}[x]=${value}`), query: {} },
          field: p.name,
          reason: 'invalid',
        });
    }
  }
  const body = deref(deref(o.op.requestBody)?.content?.['application/json']?.schema);
  if (body && base.json && typeof base.json === 'object') {
    const valid = base.json as Record<string, unknown>;
    for (const name of body.required ?? []) {
      const { [name]: _gone, ...rest } = valid;
      cases.push({ name: `body ${name} missing`, request: { ...base, json: rest }, field: name, reason: 'missing' });
    }
    for (const [name, schema] of Object.entries(body.properties ?? {})) {
      const sent = valid[name];
      if (typeof sent === 'string' && isFreeText(schema))
        for (const [label, unstorable] of UNSTORABLE)
          cases.push({
            name: `body ${name}: ${label}`,
            // Of the valid value's length, so that only the text rule fails.
            request: { ...base, json: { ...valid, [name]: `${sent.slice(0, -1)}${unstorable}` } },
            message: `Invalid ${name} parameter`,
          });
      for (const b of breakers(schema)) {
        cases.push({
          name: `body ${name}: ${b.label}`,
          request: { ...base, json: { ...valid, [name]: b.value } },
          field: name,
          reason: 'invalid',
          keyword: b.keyword,
        });
      }
    }
  }
  if (o.op.requestBody) {
    cases.push({
      name: 'a malformed JSON body',
      request: { ...base, json: undefined, raw: { contentType: 'application/json', body: '{"unterminated": ' } },
    });
    // Valid JSON that is not an object of parameters: the global `Invalid request body`.
    cases.push({ name: 'a JSON array body', request: { ...base, json: [] }, message: 'Invalid request body' });
    cases.push({
      name: 'an unknown content type',
      request: { ...base, json: undefined, raw: { contentType: 'text/plain', body: 'hello' } },
    });
  }
  return cases;
}

/**
 * The messages the document names for a failure of `field` (ADR 0002): the operation's entries for
 * that field and reason, those naming the failing keyword first, then those naming none; without
 * an entry, the documented fallback (`Missing required parameter: <field>`, `Invalid <field>
 * parameter`). Empty when the case breaks no single field (a malformed body).
 */
export function expectedMessages(
  o: Operation,
  c: Pick<NegativeCase, 'message' | 'field' | 'reason' | 'keyword'>,
): string[] {
  if (c.message) return [c.message];
  if (!c.field) return [];
  const listed: { message: string; field?: string; reason?: string; keyword?: string }[] = (
    o.op['x-error-messages'] ?? []
  ).filter((m: { message: string }) => !/<[a-z_]+>/i.test(m.message));
  const same = listed.filter((m) => m.field === c.field && m.reason === c.reason);
  const exact = same.filter((m) => m.keyword === c.keyword);
  const general = same.filter((m) => !m.keyword);
  const chosen = exact.length ? exact : general.length ? general : same;
  if (chosen.length) return [...new Set(chosen.map((m) => m.message))];
  return [c.reason === 'missing' ? `Missing required parameter: ${c.field}` : `Invalid ${c.field} parameter`];
}

/** The JSON number of a numeric schema that is not an enum, or undefined for other schemas. */
function numeric(schema: Json): Json | undefined {
  const s = deref(schema) ?? {};
  const types = [s.type ?? []].flat();
  return (types.includes('integer') || types.includes('number')) && !s.enum && s.const === undefined ? s : undefined;
}

/** The largest values a numeric field admits and the next one up, with what the answer must be. */
function largest(s: Json): { value: number; label: string; allowed: boolean }[] {
  if (typeof s.maximum === 'number')
    return [
      { value: s.maximum, label: `${s.maximum}, the maximum`, allowed: true },
      { value: s.maximum + 1, label: `${s.maximum + 1}, the maximum + 1`, allowed: false },
    ];
  // No documented maximum: the largest safe integer and the first unsafe one, which a server must
  // still answer without overflowing (a refusal or an answer, never a 5xx).
  return [
    { value: Number.MAX_SAFE_INTEGER, label: 'Number.MAX_SAFE_INTEGER (no maximum)', allowed: true },
    { value: 2 ** 53, label: '2^53 (no maximum)', allowed: true },
  ];
}

/** A case of the "largest allowed numbers" family: `allowed` false means the documented 300 is due. */
export interface LargestNumberCase extends NegativeCase {
  allowed: boolean;
}

/**
 * The "largest allowed numbers" family: every numeric query parameter and body field (and the
 * values of a numeric map such as `{assetId: price}`) at its maximum and one above it. Money and
 * time are computed from these (price x amount, amount + fee, now + ban time, page x size), so a
 * server must bound them where the document does and never answer 5xx.
 */
export function largestNumberCases(o: Operation): LargestNumberCase[] {
  const base = buildRequest(o);
  const cases: LargestNumberCase[] = [];
  for (const raw of o.op.parameters ?? []) {
    const p = deref(raw);
    const s = p.in === 'query' ? numeric(p.schema) : undefined;
    if (!s) continue;
    for (const { value, label, allowed } of largest(s))
      cases.push({
        name: `query ${p.name}: ${label}`,
        request: { ...base, query: { ...base.query, [p.name]: String(value) } },
        field: p.name,
        reason: 'invalid',
        keyword: 'maximum',
        allowed,
      });
  }
  const body = deref(deref(o.op.requestBody)?.content?.['application/json']?.schema);
  if (body && base.json && typeof base.json === 'object') {
    const valid = base.json as Record<string, unknown>;
    for (const [name, raw] of Object.entries(body.properties ?? {})) {
      const field = deref(raw);
      const direct = numeric(field);
      // A map of numbers (`value` of POST /deposit/trade): every entry of the example at once.
      const map = [field, ...(field?.oneOf ?? [])]
        .map((b: Json) => deref(b))
        .find((b: Json) => b?.type === 'object' && numeric(b.additionalProperties));
      const entries = valid[name] && typeof valid[name] === 'object' ? Object.keys(valid[name] as object) : [];
      const s = direct ?? (map && entries.length ? numeric(map.additionalProperties) : undefined);
      if (!s) continue;
      for (const { value, label, allowed } of largest(s)) {
        const sent = direct ? value : Object.fromEntries(entries.map((k) => [k, value]));
        cases.push({
          name: `body ${name}: ${label}`,
          request: { ...base, json: { ...valid, [name]: sent } },
          field: name,
          reason: 'invalid',
          keyword: 'maximum',
          allowed,
        });
      }
    }
  }
  return cases;
}
