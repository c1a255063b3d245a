// Prism as the mock starts it, in the environment a deployment gives it.
import { afterEach, expect, it } from 'vitest';
import { locateDocument } from './document.ts';
import { type Prism, startPrism } from './prism.ts';

let prism: Prism | undefined;
const before = process.env.NODE_ENV;
afterEach(async () => {
  process.env.NODE_ENV = before;
  await prism?.stop();
});

it('Given NODE_ENV=production (where Prism defaults to its multi-process mode), then Prism starts and answers', async () => {
  process.env.NODE_ENV = 'production';
  prism = await startPrism({ document: locateDocument() }, 30_000);
  const res = await fetch(`${prism.url}/item/listing/1`);
  expect(res.status).toBe(200);
}, 60_000);
