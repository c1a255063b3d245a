// The reports' shape on a run made up for the purpose: a failure broken into what to fix (also in
// JUnit's one-line message), the HTML page opening on the summary and grouping by area and
// operation with skips collapsed by reason, and the badge's sealed summary that any edit breaks.
import { describe, expect, it, TestRunner } from 'vitest';
import { checksRules } from '../kit/http.ts';
import { rule } from '../kit/rule.ts';
import { badgeSvg, canonical, runSummary, verifySummary } from './badge.ts';
import { htmlReport } from './html-report.ts';
import { junitReport } from './junit.ts';
import { progressOf } from './progress.ts';
import {
  causeOf,
  esc,
  failureLines,
  failureOf,
  groupFailures,
  type RunResult,
  summary,
  type TestOutcome,
  withJwt,
} from './report.ts';
import { madeUpRun } from './run-result.fixture.ts';

const curl = `curl -i -X POST 'http://127.0.0.1:9/cart/add' -H 'content-type: application/json' --data '{"assetIds":[1]}'`;
const message = [
  'the seed message',
  '  received: 300 "Something went wrong"',
  `  request:  ${curl}`,
  '  response: 300 {"err":true,"success":false,"content":"Something went wrong"}',
].join('\n');

const failure = failureOf(
  { message: `${message}\n    at Object.<anonymous> (cart.test.ts:10:5)` },
  {
    rules: ['R-CART-3'],
    subject: { operation: 'POST /cart/add', status: 300, body: '{"err":true}', curl },
  },
);

const outcome = (o: Partial<TestOutcome> & Pick<TestOutcome, 'name' | 'state'>): TestOutcome => ({
  file: 'tests/cart.test.ts',
  area: 'cart',
  operation: 'POST /cart/add',
  level: 'behavior',
  ...o,
});

const outcomes: TestOutcome[] = [
  outcome({
    name: 'Given an own asset, then refused',
    state: 'failed',
    failure,
    reason: failure.text,
    rules: ['R-CART-3'],
  }),
  outcome({ name: 'Given a listing, then added', state: 'passed', rules: ['R-CART-1'] }),
  outcome({ name: 'a <b> route', state: 'skipped', reason: 'the target does not implement POST /cart/add (404)' }),
  outcome({ name: 'another route', state: 'skipped', reason: 'the target does not implement POST /cart/add (404)' }),
  outcome({ name: 'login', state: 'passed', file: 'tests/auth.test.ts', area: 'auth', operation: 'POST /user/login' }),
];
const result: RunResult = madeUpRun(
  outcomes,
  [
    { op: 'POST /cart/add', status: 300 },
    { op: 'POST /user/login', status: 200 },
  ],
  {
    levels: {
      contract: { operations: 1, of: 104, passed: 0, failed: 0, skipped: 0 },
      behavior: { operations: 2, of: 104, passed: 2, failed: 1, skipped: 2 },
    },
    coverage: { operations: { hit: 2, all: 104 }, statuses: { hit: 3, all: 531 }, messages: { hit: 1, all: 317 } },
  },
);

describe('a failure', () => {
  it('names the operation, the rule, what was expected and received, and the curl line, without stack frames', () => {
    expect(failure).toEqual({
      summary: 'POST /cart/add: the seed message; received 300 "Something went wrong"',
      operation: 'POST /cart/add',
      rules: [{ id: 'R-CART-3' }],
      expected: 'the seed message',
      received: '300 "Something went wrong"',
      curl,
      response: '300 {"err":true,"success":false,"content":"Something went wrong"}',
      text: message,
    });
  });

  it("takes vitest's expected and actual values and the test's last exchange when the check is a plain expect", () => {
    const f = failureOf(
      { message: 'expected 1426 to be 1425 // Object.is equality', expected: '1425', actual: '1426' },
      {
        last: {
          operation: 'GET /user/balance',
          status: 200,
          body: '{"content":{"balance":1426}}',
          curl: 'curl -i -X GET x',
        },
      },
    );
    expect([f.summary, f.operation, f.expected, f.received, f.curl]).toEqual([
      'GET /user/balance: expected 1426 to be 1425 // Object.is equality',
      'GET /user/balance',
      '1425',
      '1426',
      'curl -i -X GET x',
    ]);
  });

  it('is printed in the console grouped by operation, rule and what differed, each part on its line', () => {
    const text = summary(result, ['results.json']);
    expect(text).toContain(
      [
        'Failed (1 test in 1 group by operation, rule and what differed):',
        '  ✗ POST /cart/add [R-CART-3]: expected the seed message, received 300 "Something went wrong" (1 test)',
        '    - Given an own asset, then refused  (tests/cart.test.ts)',
        '    summary:   POST /cart/add: the seed message; received 300 "Something went wrong"',
        '    operation: POST /cart/add',
        '    rule:      R-CART-3',
        '    expected:  the seed message',
        '    received:  300 "Something went wrong"',
        `    reproduce: ${curl}`,
      ].join('\n'),
    );
    expect(text).toContain('  2 × the target does not implement POST /cart/add (404)');
    expect(text).toContain('  Result: FAILED: 1 test failed');
  });

  it('gives test options naming its rules', () => {
    expect(rule('R-CART-3', 'R-CART-4')).toEqual({ meta: { rules: ['R-CART-3', 'R-CART-4'] } });
  });

  it('names its rules from inside the test body too, once each', () => {
    checksRules('R-CART-3');
    checksRules('R-CART-3', 'R-CART-4');
    expect(TestRunner.getCurrentTest()?.meta.rules).toEqual(['R-CART-3', 'R-CART-4']);
  });
});

describe('junit.xml', () => {
  const xml = junitReport(result);
  it("carries the one-line summary in the failure's message and the breakdown in its body", () => {
    expect(xml).toContain(
      '<failure message="POST /cart/add: the seed message; received 300 &quot;Something went wrong&quot;" type="POST /cart/add">',
    );
    expect(xml).toContain(`reproduce: ${curl.replaceAll("'", '&apos;').replaceAll('"', '&quot;')}`);
  });
  it('has one suite per file with its counts, and skips with their reason', () => {
    expect(xml).toContain('<testsuite name="tests/cart.test.ts" tests="4" failures="1" errors="0" skipped="2"');
    expect(xml).toContain(
      '<testcase classname="tests/cart.test.ts" name="a &lt;b&gt; route" time="0.000"><skipped message="the target does not implement POST /cart/add (404)"/>',
    );
  });
});

describe('report.html', () => {
  const html = htmlReport(result);
  it('opens on the verdict and the totals, then the tests; skips by reason and the rule matrix below', () => {
    const summaryAt = html.indexOf('id="summary"');
    expect(summaryAt).toBeGreaterThan(0);
    expect(summaryAt).toBeLessThan(html.indexOf('id="tests"'));
    expect(html).toContain('<div class="verdict failed">FAILED: 1 test failed</div>');
    expect(html).toContain(
      '<span class="c-failed"><b>1</b>failed</span><span class="c-passed"><b>2</b>passed</span><span class="c-not-implemented"><b>0</b>not implemented</span><span class="c-skipped"><b>2</b>skipped</span>',
    );
    expect(html).toContain('operations 2/104, documented statuses 3/531, documented messages 1/317');
    expect(html).toContain('<li>2 × the target does not implement POST /cart/add (404)</li>');
    expect(html.indexOf('id="skips"')).toBeGreaterThan(html.indexOf('id="tests"'));
    expect(html).toMatch(
      /<tr class="failed" id="rule-R-CART-3"><td><code>R-CART-3<\/code><\/td>.*<a href="#tests" data-filter-rule="R-CART-3">1 test<\/a><\/td><\/tr>/,
    );
    expect(html).toMatch(/<tr class="passed" id="rule-R-CART-1"><td><code>R-CART-1<\/code>/);
  });
  it('lists every test, failures first and open with their rule quote and exchange, filterable, wrapping', () => {
    const states = [...html.matchAll(/<details class="t s-[\w-]+" data-state="([\w-]+)"/g)].map((m) => m[1]);
    expect(states).toEqual(['failed', 'passed', 'passed', 'skipped', 'skipped']);
    expect(html).toContain(
      '<details class="t s-failed" data-state="failed" data-op="POST /cart/add" data-ops="POST /cart/add" data-rules="R-CART-3" open>',
    );
    const failed = html.slice(html.indexOf('data-state="failed"'), html.indexOf('data-state="passed"'));
    expect(failed).toContain('<blockquote><code>R-CART-3</code> (not in the seed’s rule list)</blockquote>');
    expect(failed).toContain(`<pre class="curl">${esc(curl)}</pre>`);
    expect(failed).toContain('<pre class="response">300\n{\n  &quot;err&quot;: true,');
    expect(html).toContain('<span class="tn">a &lt;b&gt; route</span>');
    expect(html).toContain('<p class="why">the target does not implement POST /cart/add (404)</p>');
    for (const state of ['failed', 'passed', 'not-implemented', 'skipped'])
      expect(html).toContain(`<input type="checkbox" name="state" value="${state}" checked>`);
    expect(html).toContain('<option value="POST /cart/add">POST /cart/add (4)</option>');
    expect(html).toContain('<option value="R-CART-3">R-CART-3 (1)</option>');
    expect(html).toContain('white-space:pre-wrap;overflow-wrap:anywhere');
  });
  it('loads nothing and runs no script but its own (Content-Security-Policy with its hash)', () => {
    expect(html).toMatch(
      /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-[\w+/=]+'; img-src data:/,
    );
    expect(html.match(/<script>/g)).toHaveLength(1);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
  });
});

describe('the badge', () => {
  const date = new Date('2026-11-25T06:00:00Z');
  it('summarises the run with the document, its SHA-256 and the suite version, sealed with SHA-256', () => {
    const s = runSummary(result, undefined, date);
    expect(s).toMatchObject({
      target: 'http://127.0.0.1:9',
      document: { version: expect.any(String), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
      suite: { name: '@marketplace/conformance', version: expect.any(String) },
      date: '2026-11-25T06:00:00.000Z',
      result: 'failed',
      counts: { passed: 2, failed: 1, skipped: 2, total: 5 },
      seal: { algorithm: 'sha256', value: expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
    expect(verifySummary(s)).toBe(true);
    expect(verifySummary({ ...s, counts: { ...s.counts, failed: 0 } })).toBe(false);
    expect(verifySummary({ ...s, result: 'passed' })).toBe(false);
  });

  it('is an HMAC-SHA256 with CONFORMANCE_SIGNING_KEY, verifiable only with the key', () => {
    const s = runSummary(result, 'ci-secret', date);
    expect(s.seal?.algorithm).toBe('hmac-sha256');
    expect([verifySummary(s, 'ci-secret'), verifySummary(s, 'other'), verifySummary(s)]).toEqual([true, false, false]);
  });

  it('seals one text per content: keys sorted at every depth', () => {
    expect(canonical({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: 'x' } })).toBe(
      '{"a":{"c":"x","d":[2,{"e":0,"f":1}]},"b":1}',
    );
  });

  it('reads passed in green or failed in red', () => {
    expect(badgeSvg({ result: 'passed', counts: { passed: 777, failed: 0, skipped: 0, total: 777 } })).toMatch(
      /fill="#4c1".*777 passed/s,
    );
    expect(badgeSvg({ result: 'failed', counts: { passed: 5, failed: 2, skipped: 0, total: 7 } })).toMatch(
      /fill="#e05d44".*2 failed of 7/s,
    );
  });
});

describe('what a team acts on', () => {
  const token = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI3NjUifQ.c2lnbmF0dXJl';
  const bearerCurl = `curl -i -X GET 'http://127.0.0.1:9/user/balance' -H 'authorization: Bearer ${token}' -H 'x-forwarded-for: 198.51.100.10'`;
  const balanceFailure = (balance: number) =>
    failureOf(
      {
        message: `the balance after the sale\n  expected: ${balance - 1}\n  received: ${balance}\n  request:  ${bearerCurl}\n  response: 200 {"content":{"balance":${balance}}}`,
      },
      { subject: { operation: 'GET /user/balance', status: 200, body: `{"balance":${balance}}`, curl: bearerCurl } },
      'POST /inventory/price',
      ['R-AUTH-IP', 'R-NOT-IN-THE-SEED'],
    );

  it('names the rules of the title and options with the seed quote of each (unknown IDs bare)', () => {
    expect(balanceFailure(1426).rules).toEqual([
      { id: 'R-AUTH-IP', sentence: expect.stringContaining('The JWT is bound to the client IP used at login') },
      { id: 'R-NOT-IN-THE-SEED' },
    ]);
  });

  it('shows $JWT in the curl line and the message, and the token once per report as JWT=', () => {
    const f = balanceFailure(1426);
    expect(f.curl).toBe(
      `curl -i -X GET 'http://127.0.0.1:9/user/balance' -H "authorization: Bearer $JWT" -H 'x-forwarded-for: 198.51.100.10'`,
    );
    expect(f.jwt).toBe(token);
    expect(f.text).not.toContain(token);
    const shown = new Set<string>();
    const first = failureLines(f, shown);
    expect(first.indexOf(`JWT=${token}`)).toBe(first.findIndex((l) => l.startsWith('reproduce:')) - 1);
    expect(failureLines(balanceFailure(1500), shown).filter((l) => l.startsWith('JWT='))).toEqual([]);
    expect([withJwt(curl).curl, withJwt(curl).jwt]).toEqual([curl, undefined]);
  });

  it('groups failures by operation, rule and what differed, numbers aside, showing the first as it is', () => {
    const failed = [1426, 1500].map((n, i) =>
      outcome({ name: `sale ${i}`, state: 'failed', failure: balanceFailure(n), operation: 'POST /inventory/price' }),
    );
    const other = outcome({ name: 'own asset', state: 'failed', failure });
    const groups = groupFailures([...failed, other]);
    expect(groups.map((g) => [g.operation, g.rules, g.cause, g.tests.length])).toEqual([
      ['GET /user/balance', ['R-AUTH-IP', 'R-NOT-IN-THE-SEED'], 'expected 1425, received 1426', 2],
      ['POST /cart/add', ['R-CART-3'], 'expected the seed message, received 300 "Something went wrong"', 1],
    ]);
    expect(causeOf(undefined, 'timed out after 5000 ms\nat …')).toBe('timed out after 5000 ms');
  });

  it('never merges two rules, and never alters a token or an identifier', () => {
    const token = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI3NjU2MTE5ODAwMDAwMDAwMSJ9.c2ln';
    const login = (rules: string[], jwt = token, expires = 1764000000) =>
      outcome({
        name: `login ${rules.join()} ${jwt.slice(10, 20)} ${expires}`,
        state: 'failed',
        failure: failureOf(
          {
            message: `the login\n  expected: 300 "Country blocked"\n  received: 200 {"jwt":"${jwt}","expires":${expires}}`,
          },
          {},
          'POST /user/login',
          rules,
        ),
      });
    const groups = groupFailures([
      login(['R-AUTH-COUNTRY']),
      login(['R-AUTH-BAN']),
      login(['R-AUTH-COUNTRY'], token, 1764000001),
      login(['R-AUTH-COUNTRY'], token.replace('I1Ni', 'I2Ni')),
    ]);
    // Numbers standing alone aside (the expiry), never digits inside a token, never two rules.
    expect(groups.map((g) => [g.rules, g.tests.length])).toEqual([
      [['R-AUTH-COUNTRY'], 2],
      [['R-AUTH-BAN'], 1],
      [['R-AUTH-COUNTRY'], 1],
    ]);
    expect(groups[1]!.cause).toBe(
      `expected 300 "Country blocked", received 200 {"jwt":"${token}","expires":1764000000}`,
    );
    const text = summary({ ...result, failed: groups.flatMap((g) => g.tests) }, []);
    expect(text).toContain(
      `✗ POST /user/login [R-AUTH-BAN]: expected 300 "Country blocked", received 200 {"jwt":"${token}"`,
    );
    expect(text).not.toMatch(/#/);
    // The breakdown carries the failure's summary, as results.json does.
    expect(text).toContain(`    summary:   ${groups[0]!.tests[0]!.failure!.summary}`);
  });

  const partial: RunResult = {
    ...result,
    failed: [],
    known: outcomes.filter((o) => o.state === 'failed').map((o) => ({ ...o, known: { expires: '2027-01-31' } })),
    baseline: {
      file: 'conformance-baseline.json',
      known: 1,
      fixed: [{ test: 'Given a listing, then added' }],
      expired: [],
      notRun: [],
    },
  };
  partial.outcomes = outcomes.map((o) => partial.known.find((k) => k.name === o.name) ?? o);
  partial.progress = progressOf(
    [
      { op: 'POST /cart/add', status: 300 },
      { op: 'POST /user/login', status: 200 },
      { op: 'GET /user/ipList', status: 404 },
    ],
    partial.outcomes,
    { missing: new Map([['GET /user/ipList', 3]]) },
  );

  it('prints the progress, the known failures and the fixed ones in the console, and passes', () => {
    const text = summary(partial, ['results.json']);
    expect(text).toContain('  passed 2, failed 0, known 1 (baseline), skipped 2');
    expect(text).toContain(
      '  Result: passed: nothing the run could test failed (besides the known failures of the baseline)',
    );
    expect(text).toContain(
      `Progress: 2 of ${partial.progress.of} operations implemented: 1 passing, 0 failing, 1 with known failures only; 1 not implemented`,
    );
    expect(text).toContain('GET /user/ipList (3 tests wait)');
    expect(text).toContain('Baseline conformance-baseline.json: 1 known failures (reported, not failing)');
    expect(text).toContain(
      '  ~ POST /cart/add [R-CART-3]: expected the seed message, received 300 "Something went wrong" (1 test, the first known until 2027-01-31)',
    );
    expect(text).toContain('    ✓ Given a listing, then added');
  });

  it('Given --operations, then its skips read "not in scope" in the console as in results.json, and no helper is blamed', () => {
    const reason = 'not in scope: GET /user/balance is left out by --operations (needed to test this operation)';
    const skipped = [
      outcome({ name: 'balance read', state: 'skipped', reason, outOfScope: ['GET /user/balance'] }),
      outcome({
        name: 'ipList',
        state: 'skipped',
        reason: 'not implemented: GET /user/ipList answered 404 (needed to list)',
        missing: ['GET /user/ipList'],
      }),
    ];
    const scoped: RunResult = {
      ...result,
      failed: [],
      skipped,
      outcomes: skipped,
      scope: ['GET /user/ipList'],
      progress: progressOf([{ op: 'GET /user/ipList', status: 404 }], skipped, {
        scope: new Set(['GET /user/ipList']),
        missing: new Map([['GET /user/ipList', 1]]),
      }),
    };
    const text = summary(scoped, []);
    expect(text).toContain('  1 × not in scope: an operation or test helper they need is left out by --operations');
    expect(text).toContain('  1 × not implemented: an operation or test helper they need answered 404');
    expect(text).not.toContain('test helpers answering 404');
  });

  it('Given a baseline entry past its date, then its failure fails again, marked as expired', () => {
    const expired = { ...outcomes[0]!, baseline: { expires: '2026-11-01', expired: true as const } };
    const text = summary(
      {
        ...result,
        failed: [expired],
        baseline: {
          file: 'b.json',
          known: 0,
          fixed: [],
          expired: [{ test: expired.name, expires: '2026-11-01' }],
          notRun: [],
        },
      },
      [],
    );
    expect(text).toContain('  Result: FAILED: 1 test failed');
    expect(text).toContain(
      '    - Given an own asset, then refused  (tests/cart.test.ts) (its baseline entry expired 2026-11-01)',
    );
    expect(text).toContain(
      '  expired, failing again (1):\n    ✗ Given an own asset, then refused (expired 2026-11-01)',
    );
  });

  it('has the progress and the known failures in junit.xml, report.html and the badge', () => {
    const xml = junitReport(partial);
    expect(xml).toMatch(/<testsuite name="progress: 2 of \d+ operations implemented[^"]*" tests="0"/);
    expect(xml).toContain(
      '<property name="operation GET /user/ipList" value="not implemented: 0 passed, 0 failed, 0 known, 0 skipped"/>',
    );
    expect(xml).toContain(
      '<skipped message="known failure (baseline until 2027-01-31): POST /cart/add: the seed message',
    );
    expect(xml).toMatch(/<testsuites name="[^"]*" tests="5" failures="0" errors="0" skipped="3"/);
    const html = htmlReport(partial);
    expect(html).toContain(
      '<tr class="skipped"><td><a href="#tests" data-filter-op="GET /user/ipList"><code>GET /user/ipList</code></a></td><td class="name">not implemented</td>',
    );
    expect(html).toContain(
      '<h4>Fixed: remove from the baseline (baseline write does) (1)</h4><ul><li>Given a listing, then added</li></ul>',
    );
    expect(html).toContain('<details class="t s-known" data-state="known" data-op="POST /cart/add"');
    expect(html).toContain('<p class="note">A known failure: the baseline lists it until 2027-01-31.</p>');
    const s = runSummary(partial, undefined, new Date('2026-11-25T06:00:00Z'));
    expect(s).toMatchObject({
      result: 'passed',
      counts: { failed: 0, known: 1 },
      operations: { implemented: 2, notImplemented: 1 },
    });
    expect(badgeSvg(s)).toContain(`>2/${partial.progress.of} operations, 2 passed, 1 known</text>`);
  });
});
