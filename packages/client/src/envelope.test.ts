import { describe, expect, it } from 'vitest';
import { messageOf, operationIdOf, settle } from './envelope.ts';

/** openapi-fetch puts a 2xx body in `data` and any other in `error`; a Response cannot be built with 300. */
const raw = (status: number, body: unknown, headers: Record<string, string> = {}) => {
  const response = new Response(null, { status: status === 300 ? 299 : status, headers });
  Object.defineProperty(response, 'status', { value: status });
  Object.defineProperty(response, 'ok', { value: status >= 200 && status < 300 });
  return response.ok ? { data: body, response } : { error: body, response };
};

describe('settle', () => {
  it('gives envelope A content and envelope B data', () => {
    expect(
      settle('post', '/item/buyorder', raw(200, { err: false, success: true, content: { details: 'Inserted' } })),
    ).toMatchObject({ ok: true, value: { details: 'Inserted' } });
    expect(settle('get', '/infos/admin', raw(200, { status: 'success', data: [{ name: 'Ada' }] }))).toMatchObject({
      ok: true,
      value: [{ name: 'Ada' }],
    });
  });

  it('turns a 300 of either envelope into a business error naming the operation', () => {
    const a = settle('post', '/item/buyorder', raw(300, { err: true, success: false, content: 'Not enough balance' }));
    expect(!a.ok && [a.error.status, a.error.kind, a.error.operation, a.error.message]).toEqual([
      300,
      'business',
      'postItemBuyorder',
      'Not enough balance',
    ]);
    const b = settle('post', '/support/create', raw(300, { status: 'error', message: 'Subject is required' }));
    expect(!b.ok && [b.error.kind, b.error.message]).toEqual(['business', 'Subject is required']);
  });

  it('treats a 2xx whose envelope says it failed as a failure', () => {
    const a = settle('post', '/item/buyorder', raw(200, { err: true, success: false, content: 'No' }));
    expect(!a.ok && [a.error.status, a.error.message]).toEqual([300, 'No']);
  });

  it('keeps the 429 wait and a raw body (CSV) as it is', () => {
    const limited = settle(
      'get',
      '/item/prices',
      raw(
        429,
        { err: true, success: false, content: 'Rate limit exceeded. Retry after 12 seconds.' },
        { 'retry-after': '12' },
      ),
    );
    expect(!limited.ok && [limited.error.kind, limited.error.retryAfter]).toEqual(['rate_limited', 12]);
    expect(settle('get', '/public/price', raw(200, 'id,name\n1,Key\n'))).toMatchObject({
      ok: true,
      value: 'id,name\n1,Key\n',
    });
  });
});

describe('messageOf and operationIdOf', () => {
  it('reads the message of object contents and falls back to the status text', () => {
    expect(messageOf({ err: true, success: false, content: { message: 'Trade failed', type: 'error' } }, 'x')).toBe(
      'Trade failed',
    );
    expect(messageOf({ err: true, success: false, content: { type: 'notFound' } }, 'x')).toBe('{"type":"notFound"}');
    expect(messageOf(undefined, 'Internal Server Error')).toBe('Internal Server Error');
  });
  it('names undocumented paths by method and path', () => {
    expect(operationIdOf('get', '/item/listing/{item}')).toBe('getItemListingItem');
    expect(operationIdOf('post', '/nowhere')).toBe('POST /nowhere');
  });
});
