// --grep on the names as the reports print them (titles joined with spaces), while vitest filters
// on the titles joined with ` > `: both spellings of a name match, a name copied from a report
// matches as written, and a regular expression still works.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../../../packages/server/src/routes/test-harness.fixture.ts';
import { runCli } from '../testing/cli-process.ts';
import { grepPattern } from './grep.ts';

const scratch = mkdtempSync(join(tmpdir(), 'conformance-grep-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const printed =
  'POST /user/login Given no apiKey, then 300 Missing required parameter: apiKey [R-MSG-LOGIN-MISSING, R-AUTH-LOGIN-ERRORS, R-ERR-300]';
/** The name vitest matches its filter against: describe and test titles joined with ` > `. */
const vitestName =
  'POST /user/login > Given no apiKey, then 300 Missing required parameter: apiKey [R-MSG-LOGIN-MISSING, R-AUTH-LOGIN-ERRORS, R-ERR-300]';

describe('--grep', () => {
  it.each([
    ['a name copied from a report, brackets and all', printed, true],
    ['words across the describe and the test title', 'login Given no apiKey', true],
    ['a rule ID', 'R-MSG-LOGIN-MISSING', true],
    ['a regular expression', '^POST /user/log(in|out) Given', true],
    ['a character class with a space in it', 'no[ ]apiKey', true],
    ['an escaped character', 'apiKey\\.?', true],
    ['text the name does not have', 'Given an apiKey', false],
    ['the old ` > ` spelling', 'POST /user/login > Given', true],
  ])('%s', (_, grep, matches) => {
    expect(grepPattern(grep).test(vitestName)).toBe(matches);
  });

  it('takes text that is no regular expression as written', () => {
    expect(grepPattern('parameter: apiKey [R-MSG-LOGIN-MISSING,').test(vitestName)).toBe(true);
    expect(grepPattern('(open').test('a ticket (open) > closed')).toBe(true);
  });
});

describe('--grep through the CLI', () => {
  it('Given the name of a test copied from a report, then exactly that test runs', { timeout: 120_000 }, async () => {
    const server = await startTestServer();
    try {
      const { code, result, stdout } = await runCli(['--target', server.baseUrl, '--grep', printed], {
        scratch,
        env: { NO_COLOR: '1' },
      });
      expect(code, stdout).toBe(0);
      expect(result!.outcomes.filter((o) => o.state !== 'skipped').map((o) => [o.name, o.state])).toEqual([
        [printed, 'passed'],
      ]);
    } finally {
      await server.close();
    }
  });
});
