import pino from 'pino';
import { parseConfig } from './packages/server/src/config.ts';
import { composeServer } from './packages/server/src/server.ts';
const { app, deps } = await composeServer({ config: parseConfig({ MARKETPLACE_DB: ':memory:', MARKETPLACE_TEST_MODE: process.env.TM }), logger: pino({ level: 'error' }) });
const server = app.listen(0, '127.0.0.1');
await new Promise((r) => server.once('listening', r));
const base = `http://127.0.0.1:${(server.address() as any).port}`;
const j = { 'content-type': 'application/json' };
const b0 = deps.store.state;
const { Tx } = await import('./packages/server/src/domain/tx.ts');
const { createUser } = await import('./packages/server/src/domain/users.ts');
const tx = new Tx(deps.store.state); createUser(tx, {}, 'k1', '76561190000000001', deps.clock.now()); await deps.store.append(tx.commit());
const login = async (k: string) => (await (await fetch(base + '/user/login', { method: 'POST', headers: j, body: JSON.stringify({ apiKey: k }) })).json()).content.jwt;
const user = await login('k1');
for (const p of ['/user/infos', '/inventory/onSale', '/user/notifications']) {
  const r = await fetch(base + p, { headers: { authorization: `Bearer ${user}` } });
  console.log(p, r.status, await r.text());
}
server.close();
