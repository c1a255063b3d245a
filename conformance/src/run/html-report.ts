// report.html: a self-contained page a team reads top-down. It opens on the summary (passed,
// failed, skipped, coverage, the rule matrix), then the results grouped by area (the test file's
// domain) and operation, failures expanded with what to fix, skips collapsed by reason; a filter
// by outcome; long lines (curl, bodies) wrap instead of running off the page. The progress table
// (each operation: implemented, passing, failing, not implemented) and the baseline's known and
// fixed failures are part of the summary.

import { RULE_SENTENCES } from '../kit/rule.ts';
import { ruleMatrix } from '../kit/rules.ts';
import { progressHeadline } from './progress.ts';
import { esc, failureLines, type RunResult, skipsByReason, type TestOutcome } from './report.ts';

const STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:2em;max-width:80em}
pre,code{font:12px ui-monospace,monospace}pre{white-space:pre-wrap;overflow-wrap:anywhere;margin:.3em 0;background:#f6f6f6;padding:.5em}
table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:3px 8px;text-align:left;vertical-align:top;overflow-wrap:anywhere}
.totals span{display:inline-block;margin-right:1.5em;font-size:1.2em}.n-failed{color:#b00}.n-passed{color:#070}.n-skipped{color:#777}
details{margin:.3em 0}summary{cursor:pointer}h2{margin-top:1.5em}.area>summary{font-size:1.1em;font-weight:600}
.op{margin-left:1.2em}.test{margin-left:1.2em}.failed>.name{color:#b00}.passed>.name{color:#070}.skipped{color:#666}
.hide-passed .passed,.hide-failed .failed,.hide-skipped .skipped{display:none}.filter label{margin-right:1em}
.known>.name{color:#a60}.n-known{color:#a60}td.num{text-align:right}`;

const SCRIPT = `for(const box of document.querySelectorAll('.filter input'))box.addEventListener('change',()=>document.body.classList.toggle('hide-'+box.value,!box.checked));`;

const count = (list: TestOutcome[], state: TestOutcome['state']) =>
  list.filter((o) => o.state === state && !(state === 'failed' && o.known)).length;
const tally = (list: TestOutcome[]) => {
  const known = list.filter((o) => o.known).length;
  return `<span class="n-passed">${count(list, 'passed')} passed</span>, <span class="n-failed">${count(list, 'failed')} failed</span>${known ? `, <span class="n-known">${known} known</span>` : ''}, <span class="n-skipped">${count(list, 'skipped')} skipped</span>`;
};

function testHtml(o: TestOutcome): string {
  if (o.state === 'failed') {
    const lines = o.failure ? failureLines(o.failure) : [o.reason ?? ''];
    const css = o.known ? 'known' : 'failed';
    const mark = o.known ? `~ known failure (baseline${o.known.expires ? ` until ${o.known.expires}` : ''}): ` : '✗ ';
    return `<div class="test ${css}"><span class="name">${esc(mark)}${esc(o.name)}</span><pre>${esc(lines.join('\n'))}</pre>${o.failure && o.failure.text !== lines[0] ? `<details><summary>full message</summary><pre>${esc(o.failure.text)}</pre></details>` : ''}</div>`;
  }
  return `<div class="test passed"><span class="name">✓</span> ${esc(o.name)}</div>`;
}

/** Skips of a group, one collapsed block per reason. */
const skipsHtml = (list: TestOutcome[]) =>
  skipsByReason(list)
    .map(
      ([reason, tests]) =>
        `<details class="test skipped"><summary>${tests.length} skipped: ${esc(reason)}</summary><ul>${tests.map((t) => `<li>${esc(t.name)}</li>`).join('')}</ul></details>`,
    )
    .join('');

function groupHtml(outcomes: TestOutcome[]): string {
  const areas = [...new Set(outcomes.map((o) => o.area))].sort();
  return areas
    .map((area) => {
      const mine = outcomes.filter((o) => o.area === area);
      const ops = [...new Set(mine.map((o) => o.operation ?? ''))].sort();
      const body = ops
        .map((op) => {
          const tests = mine.filter((o) => (o.operation ?? '') === op);
          const failed = count(tests, 'failed') > 0;
          return `<details class="op"${failed ? ' open' : ''}><summary><code>${esc(op || 'other')}</code> · ${tally(tests)}</summary>${tests
            .filter((o) => o.state !== 'skipped')
            .map(testHtml)
            .join('')}${skipsHtml(tests.filter((o) => o.state === 'skipped'))}</details>`;
        })
        .join('\n');
      const failed = count(mine, 'failed') > 0;
      return `<details class="area"${failed ? ' open' : ''}><summary>${esc(area)} · ${tally(mine)}</summary>${body}</details>`;
    })
    .join('\n');
}

/** Each seed rule (rules.ts): its words, the tests that check it and how they fared. */
function ruleTable(outcomes: TestOutcome[]): string {
  const rows = ruleMatrix(outcomes).map(({ rule, tests, state }) => {
    const verdict = tests.length
      ? tally(outcomes.filter((o) => tests.some((t) => t.name === o.name)))
      : `<span class="n-failed">${esc(rule.unchecked ? `not checkable over HTTP: ${rule.unchecked}` : 'no test checks it')}</span>`;
    const css = state === 'failed' ? 'failed' : state === 'checked' ? 'passed' : 'skipped';
    return `<tr class="${css}"><td><code>${esc(rule.id)}</code></td><td>${esc(RULE_SENTENCES.get(rule.id) ?? '')}</td><td>${verdict}</td><td>${tests.map((t) => esc(t.name)).join('<br>')}</td></tr>`;
  });
  // IDs a test names that the seed's list lacks (a team's own tests): shown, never dropped.
  const known = new Set(RULE_SENTENCES.keys());
  const unknown = new Map<string, TestOutcome[]>();
  for (const o of outcomes)
    for (const id of o.rules ?? []) if (!known.has(id)) unknown.set(id, [...(unknown.get(id) ?? []), o]);
  for (const [id, tests] of unknown) {
    const css = count(tests, 'failed') ? 'failed' : count(tests, 'passed') ? 'passed' : 'skipped';
    rows.push(
      `<tr class="${css}"><td><code>${esc(id)}</code></td><td>(not in the seed's rule list)</td><td>${tally(tests)}</td><td>${tests.map((t) => esc(t.name)).join('<br>')}</td></tr>`,
    );
  }
  return `<table><tr><th>Rule</th><th>Seed</th><th>Outcome</th><th>Tests</th></tr>${rows.join('\n')}</table>`;
}

/** Each operation's state and test counts, failing first. */
function progressHtml(result: RunResult): string {
  const p = result.progress;
  const css: Record<string, string> = { passing: 'passed', failing: 'failed', 'known failures': 'known' };
  const rows = p.operations.map(
    (r) =>
      `<tr class="${css[r.state] ?? 'skipped'}"><td><code>${esc(r.operation)}</code></td><td class="name">${esc(r.state)}</td><td class="num">${r.passed}</td><td class="num">${r.failed}</td><td class="num">${r.known}</td><td class="num">${r.skipped}</td><td class="num">${r.waiting || ''}</td></tr>`,
  );
  const helpers = p.missing.filter((m) => !p.operations.some((r) => r.operation === m.name));
  return `<p>${esc(progressHeadline(p))}.</p>
<table id="progress"><tr><th>Operation</th><th>State</th><th>Passed</th><th>Failed</th><th>Known</th><th>Skipped</th><th>Tests waiting on it (404)</th></tr>
${rows.join('\n')}
</table>${helpers.length ? `<p>Test helpers answering 404: ${helpers.map((m) => `<code>${esc(m.name)}</code> (${m.tests} tests wait)`).join(', ')}</p>` : ''}`;
}

/** The baseline's known failures, the entries that now pass and those that expired. */
function baselineHtml(result: RunResult): string {
  const b = result.baseline;
  if (!b) return '';
  const list = (title: string, tests: string[]) =>
    tests.length
      ? `<h4>${esc(title)} (${tests.length})</h4><ul>${tests.map((t) => `<li>${esc(t)}</li>`).join('')}</ul>`
      : '';
  return `<h3>Baseline <code>${esc(b.file)}</code></h3><p><span class="n-known">${b.known} known failures</span> (reported, not failing).</p>
${list(
  'Fixed: remove from the baseline (baseline write does)',
  b.fixed.map((e) => e.test),
)}${list(
  'Expired: failing again',
  b.expired.map((e) => `${e.test} (expired ${e.expires})`),
)}${list(
  'Not run or skipped this time (kept)',
  b.notRun.map((e) => e.test),
)}`;
}

/** The self-contained HTML page of a run. */
export function htmlReport(result: RunResult): string {
  const c = result.coverage;
  const all = result.outcomes;
  return `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Conformance of ${esc(result.target)}</title>
<style>${STYLE}</style>
<body>
<h1>Conformance of ${esc(result.target)}</h1>
<section id="summary"><h2>Summary</h2>
<p class="totals"><span class="n-passed">${result.passed} passed</span><span class="n-failed">${result.failed.length} failed</span>${result.known.length ? `<span class="n-known">${result.known.length} known</span>` : ''}<span class="n-skipped">${result.skipped.length} skipped</span></p>
<p>Level ${esc(result.level)}${result.readOnly ? ', read-only' : ''}${result.requireAll ? ', --require-all (a missing operation is a failure)' : ''}. Coverage (an operation counts once it answers something other than 404): operations ${c.operations.hit}/${c.operations.all}, documented statuses ${c.statuses.hit}/${c.statuses.all}, documented messages ${c.messages.hit}/${c.messages.all} (<a href="coverage.html">coverage matrix</a>).</p>
<h3>Progress</h3>${progressHtml(result)}
${baselineHtml(result)}
<h3>Skips by reason</h3>${
    skipsByReason(result.skipped).length
      ? `<ul>${skipsByReason(result.skipped)
          .map(([reason, tests]) => `<li>${tests.length} × ${esc(reason)}</li>`)
          .join('')}</ul>`
      : '<p>None.</p>'
  }
<h3>Rule matrix</h3>${ruleTable(all)}
</section>
<section id="results"><h2>Results by area and operation</h2>
<p class="filter">Show: <label><input type="checkbox" value="failed" checked> failed</label><label><input type="checkbox" value="passed" checked> passed</label><label><input type="checkbox" value="skipped" checked> skipped</label></p>
${groupHtml(all)}
</section>
<script>${SCRIPT}</script>
</body></html>
`;
}
