// junit.xml: one <testsuite> per test file; a failure's `message` is its one-line summary
// (operation, check, expected, received) and its body the whole breakdown with the curl line, so a
// CI's test view says what to fix without opening the log.
import { esc, failureLines, type RunResult, type TestOutcome } from './report.ts';

// XML 1.0 has no place for most control characters, even escaped.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters XML forbids
const xml = (s: string) => esc(s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')).replaceAll("'", '&apos;');

function testcase(o: TestOutcome): string {
  const head = `<testcase classname="${xml(o.file)}" name="${xml(o.name)}" time="${((o.duration ?? 0) / 1000).toFixed(3)}"`;
  if (o.state === 'passed') return `    ${head}/>`;
  if (o.state === 'skipped') return `    ${head}><skipped message="${xml(o.reason ?? '')}"/></testcase>`;
  const f = o.failure;
  const message = f?.summary ?? (o.reason ?? 'failed').split('\n')[0] ?? 'failed';
  const body = f ? [...failureLines(f), '', f.text].join('\n') : (o.reason ?? '');
  return `    ${head}><failure message="${xml(message)}" type="${xml(f?.operation ?? 'failure')}">${xml(body)}</failure></testcase>`;
}

/** The JUnit XML of a run. */
export function junitReport(result: RunResult): string {
  const files = [...new Set(result.outcomes.map((o) => o.file))];
  const count = (list: TestOutcome[]) => ({
    tests: list.length,
    failures: list.filter((o) => o.state === 'failed').length,
    skipped: list.filter((o) => o.state === 'skipped').length,
    time: (list.reduce((t, o) => t + (o.duration ?? 0), 0) / 1000).toFixed(3),
  });
  const attrs = (c: ReturnType<typeof count>) =>
    `tests="${c.tests}" failures="${c.failures}" errors="0" skipped="${c.skipped}" time="${c.time}"`;
  const suites = files.map((file) => {
    const mine = result.outcomes.filter((o) => o.file === file);
    return `  <testsuite name="${xml(file || 'suite')}" ${attrs(count(mine))}>\n${mine.map(testcase).join('\n')}\n  </testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="conformance of ${xml(result.target)}" ${attrs(count(result.outcomes))}>\n${suites.join('\n')}\n</testsuites>\n`;
}
