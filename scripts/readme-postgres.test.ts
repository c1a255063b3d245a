// The README's "Several instances on one PostgreSQL", run as a reader copies it: the throwaway
// cluster, two instances in their own shells (on free ports here, not 8081 and 8082), and the
// flow that logs in on one and places an order on the other: the first sees the reservation.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../conformance/src/testing/cli-process.ts';
import { postgresMissing } from './postgres.ts';

const repo = resolve(import.meta.dirname, '..');
const readme = readFileSync(resolve(repo, 'README.md'), 'utf8');
const heading = '## Several instances on one PostgreSQL';
const section = readme.slice(readme.indexOf(heading), readme.indexOf('\n## ', readme.indexOf(heading) + 1));
const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
const README_DB = 'postgres://postgres@127.0.0.1:5432/marketplace';

const missing = postgresMissing();
const started: ChildProcess[] = [];
afterAll(async () => {
  // Newest first: the instances before the cluster they use. Each shell is its own process group.
  for (const child of started.toReversed()) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const gone = new Promise((done) => child.once('exit', done));
    process.kill(-child.pid!, 'SIGTERM');
    await gone;
  }
}, 60_000);

/** Runs `script` in bash in the background; resolves with the first match of `ready` in its output. */
function background(script: string, ready: RegExp): Promise<string> {
  const child = spawn('bash', ['-euo', 'pipefail', '-c', script], { cwd: repo, detached: true });
  started.push(child);
  let output = '';
  return new Promise((done, fail) => {
    const read = (chunk: Buffer) => {
      output += chunk;
      const found = output.match(ready)?.[1];
      if (found) done(found);
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => fail(new Error(`exited with ${code} before ${ready}:\n${script}\n${output}`)));
  });
}

describe.skipIf(missing)(
  `the README's two instances on one PostgreSQL${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    it('start as written and answer as one service', { timeout: 240_000 }, async () => {
      expect(blocks).toHaveLength(4);
      expect(blocks[0]).toBe('npm run -s postgres\n');
      const db = await background(blocks[0]!, /^(postgres:\/\/\S+)$/m);
      const exports = blocks[1]!
        .split('\n')
        .filter((l) => l.startsWith('export '))
        .join('\n')
        .replace(README_DB, db);
      expect(exports).toContain('MARKETPLACE_JWT_SECRET=');
      expect(exports).toContain('MARKETPLACE_SECRETS_KEY=');
      const [p1, p2] = [await freePort(), await freePort()];
      const serverUrl = /reference server: (http\S+)/;
      const a = await background(blocks[1]!.replace(README_DB, db).replace('PORT=8081', `PORT=${p1}`), serverUrl);
      const b = await background(`${exports}\n${blocks[2]!.replace('PORT=8082', `PORT=${p2}`)}`, serverUrl);
      expect([a, b]).toEqual([`http://127.0.0.1:${p1}`, `http://127.0.0.1:${p2}`]);

      const flow = blocks[3]!.replace('A=http://127.0.0.1:8081 B=http://127.0.0.1:8082', `A=${a} B=${b}`);
      expect(flow).not.toContain(':8081');
      const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', flow], {
        cwd: repo,
        timeout: 60_000,
      });
      expect(stdout).toContain('"content":{"details":"Inserted"}');
      const balances = [...stdout.matchAll(/"balance":(\d+)/g)].map((m) => Number(m[1]));
      expect(balances).toHaveLength(2);
      expect(balances[1]).toBe(balances[0]! - 180);
    });
  },
);
