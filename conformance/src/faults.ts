// Planted faults: a proxy in front of a correct implementation that breaks one rule of the contract
// on the way through. The project's tests run the suite through each one and require it to fail:
// a suite that cannot catch these would pass a broken backend.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// biome-ignore lint/suspicious/noExplicitAny: answers are rewritten as plain JSON
type Json = any;

interface Exchange {
  method: string;
  path: string;
  headers: Record<string, string>;
  status: number;
  responseHeaders: Record<string, string>;
  body: Json;
}

export interface Fault {
  description: string;
  /** The suite's tests that must notice it (a --grep pattern). */
  grep: string;
  request?: (headers: Record<string, string>) => void;
  response?: (x: Exchange) => void;
}

const isAdminPath = (path: string) => path.startsWith('/admin/') || path.startsWith('/giveaways/deleteComment/');

export const FAULTS: Record<string, Fault> = {
  'wrong-message': {
    description: 'business errors carry another message than the documented one',
    grep: 'negative data: POST /user/login',
    response: (x) => {
      if (x.status === 300 && typeof x.body?.content === 'string') x.body.content = 'Something went wrong';
    },
  },
  'missing-field': {
    description: 'the listing count answer lacks its count field',
    grep: 'listings',
    response: (x) => {
      if (x.path.startsWith('/item/listing/count/') && x.body?.content) delete x.body.content.count;
    },
  },
  'wrong-sort-order': {
    description: 'listings come most expensive first',
    grep: 'listings',
    response: (x) => {
      if (/^\/item\/listing\/\d+/.test(x.path) && Array.isArray(x.body?.content)) x.body.content.reverse();
    },
  },
  'wrong-price': {
    description: 'pricing reports the lowest listing one cent off',
    grep: 'pricing',
    response: (x) => {
      if (x.path.startsWith('/item/pricing/') && x.body?.content?.pricing)
        x.body.content.pricing.lowest_sale_price += 1;
    },
  },
  'no-ip-binding': {
    description: 'tokens work from any IP (the proxy hides the client address)',
    grep: 'other-IP token',
    request: (headers) => {
      headers['x-forwarded-for'] = '203.0.113.250';
    },
  },
  'no-rate-limit-headers': {
    description: '429 answers lack the rate-limit headers',
    grep: 'rate limit',
    response: (x) => {
      for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'])
        delete x.responseHeaders[h];
    },
  },
  'admin-route-open': {
    description: 'admin routes answer non-admins',
    grep: 'refuses a non-admin',
    response: (x) => {
      if (isAdminPath(x.path) && x.status === 403) {
        x.status = 200;
        x.body = { status: 'success', data: {} };
      }
    },
  },
  'closed-ticket-open': {
    description: 'a closed support ticket still takes messages (the refusal is answered as a success)',
    grep: 'closed ticket',
    response: (x) => {
      if (x.body?.message === 'Cannot send message: ticket is closed') {
        x.status = 200;
        x.body = { status: 'success', data: { message: 'Message sent', ticket: 1 } };
      }
    },
  },
  'wrong-totp-secret': {
    description: '2FA create shows a secret other than the one the server checks codes against',
    grep: 'TOTP code activates',
    response: (x) => {
      const secret = x.path === '/user/2FA/create' ? (x.body?.content ?? x.body?.data) : undefined;
      if (typeof secret?.base32 === 'string') secret.base32 = `${secret.base32.slice(1)}A`;
    },
  },
  'unverifiable-draw': {
    description: 'an ended giveaway reveals a seed other than the one committed at creation',
    grep: 'the revealed seed draws',
    response: (x) => {
      const fairness = x.path.startsWith('/giveaways/details/') ? x.body?.data?.giveaway?.fairness : undefined;
      if (typeof fairness?.serverSeed === 'string') fairness.serverSeed = [...fairness.serverSeed].reverse().join('');
    },
  },
  'deposit-key-ignored': {
    description: 'a deposit with a tampered deposit key is accepted (the refusal is answered as a success)',
    grep: 'tampered key is refused',
    response: (x) => {
      if (x.path === '/deposit/trade' && String(x.body?.content).startsWith('invalid deposit key for assetId:')) {
        x.status = 200;
        x.body = { err: false, success: true, content: { id: 1 } };
      }
    },
  },
  'wrong-fee': {
    description: 'a sale credits the seller one cent more than floor(price x 95 / 100) (the fee rounded the other way)',
    grep: 'sells at once',
    response: (x) => {
      // Balances that hold sale proceeds end in the cents a 95 % floor leaves; shift them all.
      if (x.path === '/user/balance' && typeof x.body?.content?.balance === 'number' && x.body.content.balance > 0)
        x.body.content.balance += 1;
    },
  },
  'cashout-fee-rounded-down': {
    description: 'a cashout answers a fee rounded down instead of ceil(amount x rate)',
    grep: 'cashout is accepted pending with the 2 percent fee',
    response: (x) => {
      const result = x.path === '/cashout/process' ? x.body?.content : undefined;
      if (typeof result?.fee === 'number' && typeof result.amount === 'number')
        result.fee = Math.floor((result.amount * (result.method === 'provider_a' ? 20 : 15)) / 1000);
    },
  },
  'banned-login-accepted': {
    description: 'a banned user logs in (the 403 refusal is answered as a success)',
    grep: 'their token and a new login are refused',
    response: (x) => {
      if (x.path === '/user/login' && x.status === 403 && x.body?.content === 'forbidden') {
        x.status = 200;
        x.body = { err: false, success: true, content: { jwt: 'a.b.c' } };
      }
    },
  },
  'server-error-on-bad-input': {
    description: 'bad input produces a 500',
    grep: 'negative data: POST /user/login',
    response: (x) => {
      if (x.status === 300) {
        x.status = 500;
        x.body = { err: true, success: false, content: 'Internal server error' };
      }
    },
  },
  'cart-reason-unavailable': {
    description:
      'POST /cart/update reports every invalid asset as unavailable (the reason of a re-priced, gone or own asset lost)',
    grep: 'update names each reason',
    response: (x) => {
      if (x.path !== '/cart/update' || !x.body?.content?.integrity) return;
      const c = x.body.content;
      for (const entry of [...c.integrity.invalidItems, ...c.replaced, ...c.removed]) {
        entry.reason = 'unavailable';
        delete entry.currentPrice;
        delete entry.expectedPrice;
      }
    },
  },
};

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A proxy to `upstream` with `fault` planted (or none: a transparent proxy, the control). */
export async function startFaultyProxy(
  upstream: string,
  fault?: Fault,
): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer(async (req, res) => {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers))
      if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers[k] = v;
    fault?.request?.(headers);
    const body = await readBody(req);
    const answer = await fetch(new URL(req.url ?? '/', upstream), {
      method: req.method,
      headers,
      body: body.length ? new Uint8Array(body) : undefined,
    });
    const text = await answer.text();
    const x: Exchange = {
      method: req.method ?? 'GET',
      path: (req.url ?? '/').split('?')[0]!,
      headers,
      status: answer.status,
      responseHeaders: Object.fromEntries(
        [...answer.headers.entries()].filter(
          ([k]) => !['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(k),
        ),
      ),
      body: (answer.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text,
    };
    fault?.response?.(x);
    const out = typeof x.body === 'string' ? x.body : JSON.stringify(x.body);
    res.writeHead(x.status, x.responseHeaders);
    res.end(out);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
