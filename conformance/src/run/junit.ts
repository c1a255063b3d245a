// junit.xml: one <testsuite> per test file; a failure's `message` is its one-line summary
// (operation, check, expected, received) and its body the whole breakdown with the curl line, so a
// CI's test view says what to fix without opening the log. A failure the baseline lists is a skip
// saying so (it does not turn the CI's test view red), and a first suite, `operations`, carries the
// progress: a property per operation and the table as its system-out.
import { progressHeadline, progressTable } from './progress.ts';
import { esc, failureLines, type RunResult, type TestOutcome } from './report.ts';

// XML 1.0 has no place for most control characters, even escaped.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters XML forbids
const xml = (s: string) => esc(s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')).replaceAll("'", '&apos;');

function testcase(o: TestOutcome): string {
  const head = `<testcase classname="${xml(o.file)}" name="${xml(o.name)}" time="${((o.duration ?? 0) / 1000).toFixed(3)}"`;
  if (o.state === 'passed') return `    ${head}/>`;
  if (o.state === 'skipped') return `    ${head}><skipped message="${xml(o.reason ?? '')}"/></testcase>`;
  const f = o.failure;
  if (o.known) {
    const until = o.known.expires ? ` until ${o.known.expires}` : '';
    const body = f ? failureLines(f).join('\n') : (o.reason ?? '');
    return `    ${head}><skipped message="${xml(`known failure (baseline${until}): ${f?.summary ?? o.reason ?? ''}`)}">${xml(body)}</skipped></testcase>`;
  }
  const message = f?.summary ?? (o.reason ?? 'failed').split('\n')[0] ?? 'failed';
  const body = f ? [...failureLines(f), '', f.text].join('\n') : (o.reason ?? '');
  return `    ${head}><failure message="${xml(message)}" type="${xml(f?.operation ?? 'failure')}">${xml(body)}</failure></testcase>`;
}

/** The progress as a suite without tests of its own: a property per operation, the table as text. */
function progressSuite(result: RunResult): string {
  const p = result.progress;
  const props = [
    ['operations.implemented', `${p.implemented} of ${p.of}`],
    ...p.operations.map((r) => [
      `operation ${r.operation}`,
      `${r.state}: ${r.passed} passed, ${r.failed} failed, ${r.known} known, ${r.skipped} skipped`,
    ]),
  ];
  return `  <testsuite name="progress: ${xml(progressHeadline(p))}" tests="0" failures="0" errors="0" skipped="0" time="0.000">
    <properties>
${props.map(([name, value]) => `      <property name="${xml(name!)}" value="${xml(value!)}"/>`).join('\n')}
    </properties>
    <system-out>${xml([progressHeadline(p), ...progressTable(p)].join('\n'))}</system-out>
  </testsuite>`;
}

/** The JUnit XML of a run. */
export function junitReport(result: RunResult): string {
  const files = [...new Set(result.outcomes.map((o) => o.file))];
  const count = (list: TestOutcome[]) => ({
    tests: list.length,
    failures: list.filter((o) => o.state === 'failed' && !o.known).length,
    skipped: list.filter((o) => o.state === 'skipped' || o.known).length,
    time: (list.reduce((t, o) => t + (o.duration ?? 0), 0) / 1000).toFixed(3),
  });
  const attrs = (c: ReturnType<typeof count>) =>
    `tests="${c.tests}" failures="${c.failures}" errors="0" skipped="${c.skipped}" time="${c.time}"`;
  const suites = files.map((file) => {
    const mine = result.outcomes.filter((o) => o.file === file);
    return `  <testsuite name="${xml(file || 'suite')}" ${attrs(count(mine))}>\n${mine.map(testcase).join('\n')}\n  </testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="conformance of ${xml(result.target)}" ${attrs(count(result.outcomes))}>\n${[progressSuite(result), ...suites].join('\n')}\n</testsuites>\n`;
}
