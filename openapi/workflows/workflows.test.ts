// The Arazzo workflows of this folder run with `redocly respect` against the reference server in
// test mode (in memory, on a free port, in this process): every workflow of every file passes, the
// seed's main flows are all there, and a workflow whose check does not hold fails the run.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Json } from '../../packages/contract/src/document.ts';
import { startTestServer, type TestServer } from '../../packages/server/src/routes/test-harness.fixture.ts';
import { readWorkflows } from '../../scripts/docs-workflows.ts';

const root = resolve(import.meta.dirname, '../..');
const here = import.meta.dirname;
const files = readWorkflows(here);

interface RespectRun {
  code: number;
  output: string;
  report: {
    files: Record<string, { executedWorkflows: { workflowId: string; status: string; executedSteps: Json[] }[] }>;
  };
}
let server: TestServer;
const scratch = mkdtempSync(join(tmpdir(), 'workflows-'));
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/**
 * Runs `redocly respect` on `paths` against the test server (both source descriptions point at
 * it). Asynchronous on purpose: the server answers from this very process.
 */
async function respect(paths: string[], report: string): Promise<RespectRun> {
  const servers = `marketplace=${server.baseUrl},testHelpers=${server.baseUrl}`;
  let code = 0;
  let output = '';
  try {
    const done = await promisify(execFile)(
      join(root, 'node_modules/.bin/redocly'),
      ['respect', ...paths, '--server', servers, '--json-output', report, '--max-fetch-timeout', '60000'],
      { cwd: root, env: { ...process.env, REDOCLY_TELEMETRY: 'off', NO_COLOR: '1' }, maxBuffer: 64 * 1024 * 1024 },
    );
    output = done.stdout;
  } catch (error) {
    code = (error as { code?: number }).code ?? 1;
    output = `${(error as { stdout?: string }).stdout ?? ''}${(error as { stderr?: string }).stderr ?? ''}`;
  }
  return { code, output, report: JSON.parse(readFileSync(report, 'utf8')) };
}

describe('the Arazzo workflows', () => {
  it('describe the seed main flows', () => {
    const ids = files.flatMap(({ arazzo }) => arazzo.workflows.map((w: Json) => w.workflowId));
    expect(ids).toEqual(
      expect.arrayContaining([
        'loginAndReadBalance',
        'depositAndList',
        'listingSoldIntoBuyOrder',
        'cartAddAndCheckout',
        'cashoutToCompletion',
        'enableTwoFactor',
        'supportTicketAnswered',
      ]),
    );
    for (const { arazzo } of files) expect(arazzo.arazzo).toMatch(/^1\.0\.\d+$/);
  });

  it('all pass with redocly respect against the reference server in test mode', async () => {
    const run = await respect(
      files.map(({ file }) => join('openapi/workflows', file)),
      join(scratch, 'all.json'),
    );
    const results = Object.values(run.report.files).flatMap((f) => f.executedWorkflows);
    const failed = results.filter((w) => w.status !== 'success').map((w) => w.workflowId);
    expect(failed, run.output).toEqual([]);
    expect(run.code, run.output).toBe(0);
    // Every workflow of every file ran (a file respect could not read would simply be missing).
    for (const { file, arazzo } of files) {
      const ran = run.report.files[join('openapi/workflows', file)]?.executedWorkflows.map((w) => w.workflowId);
      expect(ran, file).toEqual(expect.arrayContaining(arazzo.workflows.map((w: Json) => w.workflowId)));
    }
  }, 300_000);

  it('fail when a check does not hold (a seller credited 1,900 instead of floor(95 %) = 1,899)', async () => {
    // A copy of one workflow with one expectation changed; its sources point back at this folder.
    const text = readFileSync(join(here, 'buy-order-sale.arazzo.yaml'), 'utf8')
      .replaceAll('url: ../', `url: ${resolve(here, '..')}/`)
      .replaceAll('url: sessions.arazzo.yaml', `url: ${join(here, 'sessions.arazzo.yaml')}`)
      .replace('balance == 1899', 'balance == 1900');
    expect(text).toContain('balance == 1900');
    const copy = join(scratch, 'wrong.arazzo.yaml');
    writeFileSync(copy, text);
    const run = await respect([copy], join(scratch, 'wrong.json'));
    expect(run.code).not.toBe(0);
    const [workflow] = Object.values(run.report.files)[0]!.executedWorkflows;
    expect(workflow!.status).not.toBe('success');
    expect(run.output).toContain('sellerCredited');
  }, 300_000);
});
