// report.html: one self-contained page (inline style and script, no network, works from file://)
// that a team looks at rather than reads, in the manner of Playwright's and Allure's reports. It
// opens on the verdict and the totals as a bar, then what changed since a previous run
// (--previous), then every test, failures first (grouped as the console groups them), each failure
// with its rules' seed quotes, expected and received, and the exchange (the curl line and the
// response); filters by state, operation, rule and words narrow the list in the browser. Below:
// progress per tag as bars (each tag opens on its operations' table), skips by reason, the
// baseline and the rule matrix. Everything from the run (names, bodies, a target's answers) is
// escaped, and the page's Content-Security-Policy runs no script but its own.

import { RULE_SENTENCES } from '../kit/rule.ts';
import { ruleMatrix } from '../kit/rules.ts';
import { operations } from '../oracle/document.ts';
import { type ChangedOperation, type Changes, delta } from './changes.ts';
import { CSP, SCRIPT, STYLE } from './html-report-assets.ts';
import { countsFor, type OperationProgress, type OperationState, progressHeadline } from './progress.ts';
import { esc, groupFailures, type RunResult, skipsByReason, type TestOutcome } from './report.ts';

/** A test's state as the page shows and filters it. */
type Shown = 'failed' | 'known' | 'passed' | 'not-implemented' | 'skipped';

const LABEL: Record<Shown, string> = {
  failed: 'failed',
  known: 'known failure',
  passed: 'passed',
  'not-implemented': 'not implemented',
  skipped: 'skipped',
};
const MARK: Record<Shown, string> = { failed: '✗', known: '~', passed: '✓', 'not-implemented': '·', skipped: '–' };

/** A skip because an operation or helper it needs answered 404 is "not implemented". */
const shownState = (o: TestOutcome): Shown =>
  o.state === 'failed'
    ? o.known
      ? 'known'
      : 'failed'
    : o.state === 'passed'
      ? 'passed'
      : o.missing?.length
        ? 'not-implemented'
        : 'skipped';

/** The operation a test is shown under: where its failure is pinned, else the one it is about. */
const operationOf = (o: TestOutcome) => o.failure?.operation ?? o.operation ?? '';

const rulesOfTest = (o: TestOutcome) => [
  ...new Set([...(o.rules ?? []), ...(o.failure?.rules.map((r) => r.id) ?? [])]),
];

/** `200 {"a":1}` with its JSON body indented, else as it is. */
function readable(response: string): string {
  const at = response.indexOf(' ');
  try {
    return `${response.slice(0, at)}\n${JSON.stringify(JSON.parse(response.slice(at + 1)), null, 2)}`;
  } catch {
    return response;
  }
}

/** What a failure is, to fix it: the rules' words, expected and received, the exchange. */
function failureBody(o: TestOutcome): string {
  const f = o.failure;
  const notes = [
    o.known ? `A known failure: the baseline lists it${o.known.expires ? ` until ${o.known.expires}` : ''}.` : '',
    o.baseline?.expired ? `Its baseline entry expired ${o.baseline.expires ?? ''}: failing again.` : '',
  ].filter(Boolean);
  if (!f) return `${notes.map((n) => `<p class="note">${esc(n)}</p>`).join('')}<pre>${esc(o.reason ?? '')}</pre>`;
  const rules = f.rules
    .map(
      (r) =>
        `<blockquote><code>${esc(r.id)}</code> ${r.sentence ? `“${esc(r.sentence)}”` : '(not in the seed’s rule list)'}</blockquote>`,
    )
    .join('');
  const ex = [
    f.expected ? `<dt>expected</dt><dd><pre>${esc(f.expected)}</pre></dd>` : '',
    f.received ? `<dt>received</dt><dd><pre>${esc(f.received)}</pre></dd>` : '',
  ].join('');
  const request = f.curl ? `${f.jwt ? `JWT=${f.jwt}\n` : ''}${f.curl}` : '';
  const exchange =
    request || f.response
      ? `<h4>Exchange${f.operation ? ` <code>${esc(f.operation)}</code>` : ''}</h4><div class="exchange"><div><h5>Request (curl)${request ? ' <button class="copy" type="button">copy</button>' : ''}</h5><pre class="curl">${esc(request || '(no request recorded)')}</pre></div><div><h5>Response</h5><pre class="response">${esc(f.response ? readable(f.response) : '(no response recorded)')}</pre></div></div>`
      : '';
  return `${notes.map((n) => `<p class="note">${esc(n)}</p>`).join('')}<p class="why">${esc(f.summary)}</p>${rules}${ex ? `<dl class="ex">${ex}</dl>` : ''}${exchange}<details><summary>Full message</summary><pre>${esc(f.text)}</pre></details>`;
}

/** What a skip or a pass has to say. */
function otherBody(o: TestOutcome): string {
  const rules = rulesOfTest(o);
  const parts = [
    o.state === 'skipped' ? `<p class="why">${esc(o.reason ?? 'skipped')}</p>` : '',
    o.missing?.length ? `<p>Answering 404: ${o.missing.map((m) => `<code>${esc(m)}</code>`).join(', ')}</p>` : '',
    o.outOfScope?.length
      ? `<p>Left out by --operations: ${o.outOfScope.map((m) => `<code>${esc(m)}</code>`).join(', ')}</p>`
      : '',
    // The rules by ID only, each a link to its words in the rule matrix: a passing run has a
    // thousand entries, and the quotes would double the page.
    rules.length
      ? `<p>Rules: ${rules.map((id) => `<a href="#rule-${esc(id)}"><code>${esc(id)}</code></a>`).join(', ')}</p>`
      : '',
    `<p class="meta">${esc(o.file)} · ${esc(o.level)}${o.duration !== undefined ? ` · ${o.duration} ms` : ''}</p>`,
  ];
  return parts.join('');
}

/** One entry of the test list, its data attributes what the filters read. */
function testEntry(o: TestOutcome): string {
  const state = shownState(o);
  const op = operationOf(o);
  const failing = state === 'failed' || state === 'known';
  return `<details class="t s-${state}" data-state="${state}" data-op="${esc(op)}" data-ops="${esc(countsFor(o).join('|'))}" data-rules="${esc(rulesOfTest(o).join(' '))}"${state === 'failed' ? ' open' : ''}><summary><span class="mark" title="${LABEL[state]}">${MARK[state]}</span><span class="tn">${esc(o.name)}</span>${op ? `<code class="op">${esc(op)}</code>` : ''}<span class="file">${esc(o.file)}</span></summary><div class="body">${failing ? failureBody(o) : otherBody(o)}</div></details>`;
}

/** Every test, failures first in the console's groups (largest first), then the others by state. */
function orderedTests(result: RunResult): TestOutcome[] {
  const failed = groupFailures(result.outcomes.filter((o) => shownState(o) === 'failed')).flatMap((g) => g.tests);
  const rest = (['known', 'passed', 'not-implemented', 'skipped'] as Shown[]).flatMap((s) =>
    result.outcomes.filter((o) => shownState(o) === s),
  );
  return [...failed, ...rest];
}

/** `<option>`s of the values tests carry, each with how many tests carry it. */
function options(values: string[]): string {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([v, n]) => `<option value="${esc(v)}">${esc(v)} (${n})</option>`)
    .join('');
}

/** The filters and the list. */
function testsSection(result: RunResult): string {
  const tests = orderedTests(result);
  const count = (s: Shown) => tests.filter((o) => shownState(o) === s).length;
  const boxes = (Object.keys(LABEL) as Shown[])
    .filter((s) => s !== 'known' || count(s))
    .map(
      (s) =>
        `<label><input type="checkbox" name="state" value="${s}" checked> <span class="c-${s}">${LABEL[s]}</span> (${count(s)})</label>`,
    )
    .join('');
  const ops = options(tests.flatMap(countsFor));
  const rules = options(tests.flatMap(rulesOfTest));
  return `<section id="tests"><h2>Tests, failures first</h2>
<div id="filters">${boxes}
<label>Operation <select id="f-op"><option value="">all operations</option>${ops}</select></label>
<label>Rule <select id="f-rule"><option value="">all rules</option>${rules}</select></label>
<label>Name <input id="f-text" type="search" placeholder="words of the test name"></label>
<span id="shown"></span></div>
${count('failed') ? '' : '<p class="c-passed">No test failed.</p>'}
<div id="list">
${tests.map(testEntry).join('\n')}
</div></section>`;
}

/** A bar of counts: each part as wide as its share, titled with its count. */
function bar(parts: [string, number, string][], css = ''): string {
  const total = parts.reduce((n, [, v]) => n + v, 0) || 1;
  return `<div class="bar ${css}">${parts
    .filter(([, v]) => v > 0)
    .map(
      ([kind, v, label]) =>
        `<span class="b-${kind}" style="width:${((100 * v) / total).toFixed(2)}%" title="${v} ${esc(label)}"></span>`,
    )
    .join('')}</div>`;
}

const STATES: OperationState[] = [
  'passing',
  'failing',
  'known failures',
  'not implemented',
  'not tested',
  'not in scope',
];
const kebab = (s: string) => s.replaceAll(' ', '-');

const opLink = (op: string) => `<a href="#tests" data-filter-op="${esc(op)}"><code>${esc(op)}</code></a>`;

/** The operations of a tag (its first OpenAPI tag), in the document's order. */
function byTag(rows: OperationProgress[]): [string, OperationProgress[]][] {
  const tagOf = new Map(operations.map((o) => [o.name, (o.op.tags?.[0] as string | undefined) ?? 'Other']));
  const tags = new Map<string, OperationProgress[]>();
  for (const r of rows) {
    const tag = tagOf.get(r.operation) ?? 'Other';
    tags.set(tag, [...(tags.get(tag) ?? []), r]);
  }
  return [...tags];
}

/** Progress per tag: a bar of its operations' states, opening on their table. */
function progressSection(result: RunResult): string {
  const p = result.progress;
  const css: Record<string, string> = { passing: 'passed', failing: 'failed', 'known failures': 'known' };
  const legend = STATES.map((s) => `<span><i class="b-${kebab(s)}"></i>${s}</span>`).join('');
  const tags = byTag(p.operations).map(([tag, rows]) => {
    const n = (s: OperationState) => rows.filter((r) => r.state === s).length;
    const implemented = rows.filter((r) => r.implemented).length;
    const words = [`${implemented}/${rows.length} implemented`, `${n('passing')} passing`];
    if (n('failing')) words.push(`${n('failing')} failing`);
    if (n('known failures')) words.push(`${n('known failures')} known`);
    const table = rows
      .map(
        (r) =>
          `<tr class="${css[r.state] ?? 'skipped'}"><td>${opLink(r.operation)}</td><td class="name">${esc(r.state)}</td><td class="num">${r.passed}</td><td class="num">${r.failed}</td><td class="num">${r.known}</td><td class="num">${r.skipped}</td><td class="num">${r.waiting || ''}</td></tr>`,
      )
      .join('\n');
    return `<details class="tag" data-tag="${esc(tag)}"${n('failing') ? ' open' : ''}><summary><span>${esc(tag)}</span>${bar(STATES.map((s) => [kebab(s), n(s), `operations ${s}`]))}<span class="meta">${words.join(' · ')}</span></summary>
<table><tr><th>Operation</th><th>State</th><th>Passed</th><th>Failed</th><th>Known</th><th>Skipped</th><th>Tests waiting on it (404)</th></tr>
${table}</table></details>`;
  });
  const helpers = p.missing.filter((m) => !p.operations.some((r) => r.operation === m.name));
  return `<section id="progress"><h2>Progress by tag</h2><p>${esc(progressHeadline(p))}.</p><p class="legend">${legend}</p>
${tags.join('\n')}${helpers.length ? `<p>Test helpers answering 404: ${helpers.map((m) => `<code>${esc(m.name)}</code> (${m.tests} tests wait)`).join(', ')}</p>` : ''}</section>`;
}

/** What changed since the previous run: three lists of operations, each with its tests. */
function changesSection(c: Changes | undefined): string {
  if (!c) return '';
  const list = (id: string, title: string, ops: ChangedOperation[], empty: string) =>
    `<div id="${id}"><h3>${esc(title)} (${ops.length})</h3>${
      ops.length
        ? `<ul>${ops
            .map(
              (o) =>
                `<li data-op="${esc(o.operation)}">${opLink(o.operation)} <span class="meta">${esc(o.state)}${o.tests.length ? `, ${o.tests.length} test${o.tests.length === 1 ? '' : 's'}` : ''}</span>${o.tests.length ? `<ul>${o.tests.map((t) => `<li>${esc(t)}</li>`).join('')}</ul>` : ''}</li>`,
            )
            .join('')}</ul>`
        : `<p class="meta">${esc(empty)}</p>`
    }</div>`;
  const since = [c.date, c.target].filter(Boolean).join(', against ');
  return `<section id="changes"><h2>Since the previous run</h2>
<p class="meta">Compared with <code>${esc(c.file)}</code>${since ? ` (${esc(since)})` : ''}: passed ${delta(c.counts.passed)}, failed ${delta(c.counts.failed)}, skipped ${delta(c.counts.skipped)}, operations implemented ${delta(c.counts.implemented)}.</p>
${
  c.limited
    ? `<p>${esc(c.limited)}</p>`
    : `<div class="changes">${list('newly-failing', 'Newly failing', c.newlyFailing, 'Nothing fails that passed before.')}${list('fixed', 'Fixed', c.fixed, 'No failure of then passes now.')}${list('newly-implemented', 'Newly implemented', c.newlyImplemented, 'No operation answers now that did not then.')}</div>`
}</section>`;
}

/** A link that filters the test list by a rule: the list has the tests, the matrix only counts them. */
const ruleTests = (id: string, n: number) =>
  n ? `<a href="#tests" data-filter-rule="${esc(id)}">${n} test${n === 1 ? '' : 's'}</a>` : '';

/** Each seed rule (rules.ts): its words, how many tests check it and how they fared. */
function ruleTable(outcomes: TestOutcome[]): string {
  const tally = (list: TestOutcome[]) => {
    const n = (s: Shown) => list.filter((o) => shownState(o) === s).length;
    return `<span class="c-passed">${n('passed')} passed</span>, <span class="c-failed">${n('failed')} failed</span>${n('known') ? `, <span class="c-known">${n('known')} known</span>` : ''}, <span class="c-skipped">${n('skipped') + n('not-implemented')} skipped</span>`;
  };
  const rows = ruleMatrix(outcomes).map(({ rule, tests, state }) => {
    const verdict = tests.length
      ? tally(outcomes.filter((o) => tests.some((t) => t.name === o.name)))
      : `<span class="c-failed">${esc(rule.unchecked ? `not checkable over HTTP: ${rule.unchecked}` : 'no test checks it')}</span>`;
    const css = state === 'failed' ? 'failed' : state === 'checked' ? 'passed' : 'skipped';
    return `<tr class="${css}" id="rule-${esc(rule.id)}"><td><code>${esc(rule.id)}</code></td><td>${esc(RULE_SENTENCES.get(rule.id) ?? '')}</td><td>${verdict}</td><td>${ruleTests(rule.id, tests.length)}</td></tr>`;
  });
  // IDs a test names that the seed's list lacks (a team's own tests): shown, never dropped.
  const unknown = new Map<string, TestOutcome[]>();
  for (const o of outcomes)
    for (const id of o.rules ?? []) if (!RULE_SENTENCES.has(id)) unknown.set(id, [...(unknown.get(id) ?? []), o]);
  for (const [id, tests] of unknown) {
    const css = tests.some((o) => o.state === 'failed' && !o.known)
      ? 'failed'
      : tests.some((o) => o.state === 'passed')
        ? 'passed'
        : 'skipped';
    rows.push(
      `<tr class="${css}" id="rule-${esc(id)}"><td><code>${esc(id)}</code></td><td>(not in the seed's rule list)</td><td>${tally(tests)}</td><td>${ruleTests(id, tests.length)}</td></tr>`,
    );
  }
  return `<table><tr><th>Rule</th><th>Seed</th><th>Outcome</th><th>Tests</th></tr>${rows.join('\n')}</table>`;
}

/** The baseline's known failures, the entries that now pass and those that expired. */
function baselineHtml(result: RunResult): string {
  const b = result.baseline;
  if (!b) return '';
  const list = (title: string, tests: string[]) =>
    tests.length
      ? `<h4>${esc(title)} (${tests.length})</h4><ul>${tests.map((t) => `<li>${esc(t)}</li>`).join('')}</ul>`
      : '';
  return `<section id="baseline"><h2>Baseline <code>${esc(b.file)}</code></h2><p><span class="c-known">${b.known} known failures</span> (reported, not failing).</p>
${list(
  'Fixed: remove from the baseline (baseline write does)',
  b.fixed.map((e) => e.test),
)}${list(
  'Expired: failing again',
  b.expired.map((e) => `${e.test} (expired ${e.expires})`),
)}${list(
  'Not run or skipped this time (kept)',
  b.notRun.map((e) => e.test),
)}</section>`;
}

/** The verdict, the totals and a bar of them. */
function header(result: RunResult): string {
  const c = result.coverage;
  const n = (s: Shown) => result.outcomes.filter((o) => shownState(o) === s).length;
  const failed = result.failed.length;
  const flags = [result.readOnly ? 'read-only' : '', result.requireAll ? '--require-all' : '']
    .concat(result.scope ? [`--operations: ${result.scope.length}`] : [])
    .filter(Boolean);
  const chips = (Object.keys(LABEL) as Shown[])
    .filter((s) => s !== 'known' || n(s))
    .map((s) => `<span class="c-${s}"><b>${n(s)}</b>${LABEL[s]}</span>`)
    .join('');
  return `<header id="summary"><h1>Conformance of ${esc(result.target)}</h1>
<p class="meta">Level ${esc(result.level)}${flags.map((f) => `, ${esc(f)}`).join('')} · coverage (an operation counts once it answers something other than 404): operations ${c.operations.hit}/${c.operations.all}, documented statuses ${c.statuses.hit}/${c.statuses.all}, documented messages ${c.messages.hit}/${c.messages.all} (<a href="coverage.html">coverage matrix</a>)</p>
<div class="verdict ${failed ? 'failed' : 'passed'}">${failed ? `FAILED: ${failed} test${failed === 1 ? '' : 's'} failed` : 'Passed: nothing the run could test failed'}</div>
<p class="chips">${chips}</p>
${bar(
  (Object.keys(LABEL) as Shown[]).map((s) => [s, n(s), LABEL[s]]),
  'totalbar',
)}
<nav>${result.changes ? '<a href="#changes">Changes</a>' : ''}<a href="#tests">Tests</a><a href="#progress">Progress by tag</a><a href="#skips">Skips by reason</a>${result.baseline ? '<a href="#baseline">Baseline</a>' : ''}<a href="#rules">Rule matrix</a></nav></header>`;
}

/** The self-contained HTML page of a run. */
export function htmlReport(result: RunResult): string {
  const reasons = skipsByReason(result.skipped);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${CSP}"><meta name="viewport" content="width=device-width"><title>Conformance of ${esc(result.target)}</title>
<style>${STYLE}</style></head>
<body><main>
${header(result)}
${changesSection(result.changes)}
${testsSection(result)}
${progressSection(result)}
<section id="skips"><h2>Skips by reason</h2>${
    reasons.length
      ? `<ul>${reasons.map(([reason, tests]) => `<li>${tests.length} × ${esc(reason)}</li>`).join('')}</ul>`
      : '<p>None.</p>'
  }</section>
${baselineHtml(result)}
<section id="rules"><h2>Rule matrix</h2><details class="more"><summary>Every seed rule with its words and the tests that check it</summary>${ruleTable(result.outcomes)}</details></section>
</main>
<script>${SCRIPT}</script>
</body></html>
`;
}
