// The whole conformance suite (every level, through its CLI as a user runs it) against the
// reference server on PostgreSQL: one instance, then two instances on one database behind a proxy
// that sends each request to the next instance, so consecutive requests of one test land on
// different processes (issue 14: "behave as one server, whichever instance each request reaches").
// The money invariant holds on the database after each run. Then issue 25's isolation proof on
// PostgreSQL (ADR 25): two runs at once, each on a sandbox created through the other instance.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../../../conformance/src/testing/cli-process.ts';
import { type Postgres, postgresMissing, startPostgres } from '../../../../../scripts/postgres.ts';
import { auditMoney } from '../../domain/audit.ts';
import { contentOf, startInstances, startRoundRobin } from './instances.fixture.ts';
import { loadPostgresState } from './postgres-store.ts';
import { sandboxSchema } from './sandbox-registry.ts';

const missing = postgresMissing();
const scratch = mkdtempSync(join(tmpdir(), 'conformance-postgres-'));
let cluster: Postgres;

/**
 * Runs every level against `target` and expects no failure and no unexplained skip, except the
 * failures of the rules named in `perInstance` (limits an instance keeps alone, ADR 0036 addendum).
 */
async function passesTheSuite(target: string, output: () => string, perInstance: string[] = []) {
  const { code, result, stdout, stderr } = await runCli(
    ['--target', target, '--level', 'all', '--blocked-country', 'KP'],
    { scratch, env: { NO_COLOR: '1' } },
  );
  const why = `${stdout.slice(-4000)}${stderr}\n--- instances:\n${output().slice(-4000)}`;
  const excused = (name: string) => perInstance.some((rule) => name.includes(`${rule}]`) || name.includes(`${rule},`));
  const failed = result?.failed ?? [];
  expect(
    failed.filter((f) => !excused(f.name)).map((f) => `${f.name}: ${f.reason}`),
    why,
  ).toEqual([]);
  expect(code, why).toBe(failed.length > 0 ? 1 : 0);
  expect(result!.levels.behavior.passed).toBeGreaterThan(100);
  expect(result!.skipped.filter((s) => !s.reason || s.reason.includes('without a recorded reason'))).toEqual([]);
}

describe.skipIf(missing)(`the conformance suite on PostgreSQL${missing ? ` (skipped: ${missing})` : ''}`, () => {
  beforeAll(async () => {
    cluster = await startPostgres();
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('passes every level against one instance', { timeout: 900_000 }, async () => {
    const db = await cluster.createDatabase('suite_one');
    const instances = await startInstances(db, 1, { MARKETPLACE_BLOCKED_COUNTRIES: 'KP' });
    try {
      await passesTheSuite(instances.urls[0]!, () => instances.output(0));
    } finally {
      await instances.stopAll();
    }
    expect(auditMoney(await loadPostgresState(db)).problems).toEqual([]);
  });

  it('passes every level when its requests alternate between two instances on one database', {
    timeout: 900_000,
  }, async () => {
    const db = await cluster.createDatabase('suite_two');
    const instances = await startInstances(db, 2, { MARKETPLACE_BLOCKED_COUNTRIES: 'KP' });
    const proxy = await startRoundRobin(instances.urls);
    try {
      // The anonymous-upload cap counts the bodies one instance is reading (its own connections):
      // behind a balancer of two, an IP can have 32 arriving at each. Its test is excused here.
      await passesTheSuite(proxy.url, () => `${instances.output(0)}\n---\n${instances.output(1)}`, [
        'R-LIMIT-ANONYMOUS-UPLOADS',
      ]);
    } finally {
      await proxy.close();
      await instances.stopAll();
    }
    expect(auditMoney(await loadPostgresState(db)).problems).toEqual([]);
  });
  // Every reset, clock move and rate-limit window of one run stays in its sandbox's schema: any of
  // it reaching the other world would fail the other run. And a sandbox is served by an instance
  // that did not create it.
  it('passes every level twice at once on two sandboxes, each created through the other instance', {
    timeout: 900_000,
  }, async () => {
    const db = await cluster.createDatabase('suite_sandboxes');
    const instances = await startInstances(db, 2, { MARKETPLACE_BLOCKED_COUNTRIES: 'KP' });
    const [a, b] = instances.urls as [string, string];
    const create = async (base: string) => {
      const res = await fetch(`${base}/sandboxes`, { method: 'POST' });
      expect(res.status).toBe(200);
      return contentOf({ status: res.status, body: await res.json() }) as { id: string; path: string };
    };
    const sandboxes = [await create(a), await create(b)] as const;
    try {
      const output = () => `${instances.output(0)}\n---\n${instances.output(1)}`;
      await Promise.all([
        passesTheSuite(`${b}${sandboxes[0].path}`, output),
        passesTheSuite(`${a}${sandboxes[1].path}`, output),
      ]);
    } finally {
      await instances.stopAll();
    }
    for (const { id } of sandboxes) {
      const world = await loadPostgresState(db, sandboxSchema(id));
      expect(world.seq).toBeGreaterThan(0); // the sandbox's world, not the main one
      expect(auditMoney(world).problems).toEqual([]);
    }
    expect((await loadPostgresState(db)).seq).toBe(0); // which no run touched
  });
});
