// The mock's table of `npm run bench` (alone: `npm run bench:mock`): GET /item/listing/1 over 50
// connections against bare Prism on the bundled document (the baseline), the mock (Prism behind
// its front, example answers reused from its answer cache: ADR 0020) and the sandbox (the
// reference server in memory with demo data), each in its own process and measured in turn.
// Target: the mock at 4x bare Prism or more, with a p99 under 20 ms. A second of load first fills
// the mock's cache and warms each process's JIT.
import autocannon from 'autocannon';
import { DURATION, type Figures, figures, measure, printTable, start } from './bench-run.ts';

const CONNECTIONS = 50;
const PATH = '/item/listing/1';
const TARGET_RATIO = 4;
const TARGET_P99_MS = 20;

async function measureTarget(kind: string): Promise<Figures> {
  const target = await start([kind]);
  try {
    const url = `${target.url}${PATH}`;
    await autocannon({ connections: CONNECTIONS, duration: 1, url });
    return await measure({ connections: CONNECTIONS, url });
  } finally {
    await target.stop();
  }
}

/** Measures and prints the table; returns the mock's ratio to bare Prism. */
export async function mockTable(): Promise<number> {
  const prism = await measureTarget('prism');
  const mock = await measureTarget('mock');
  const sandbox = await measureTarget('sandbox');
  const ratio = mock.rps / prism.rps;
  // Each half of the target on its own: the p99 is the first figure a busy machine spoils.
  const verdict = [
    `ratio ${ratio >= TARGET_RATIO ? 'met' : 'NOT MET'}`,
    `p99 ${mock.p99 < TARGET_P99_MS ? 'met' : 'NOT MET'}`,
  ].join(', ');
  const row = (what: string, f: Figures, target = '', verdict = '') => [
    what,
    ...figures(f),
    (f.rps / prism.rps).toFixed(2),
    target,
    verdict,
  ];
  console.log(`\nThe mock (GET ${PATH}, ${DURATION} s per measurement, ${CONNECTIONS} connections)\n`);
  printTable(
    ['measurement', 'req/s', 'mean ms', 'p50 ms', 'p99 ms', 'ratio', 'target', ''],
    [
      row('bare Prism on the bundled document (baseline)', prism),
      row(
        'the mock: example answers, cached',
        mock,
        `>= ${TARGET_RATIO}x bare Prism, p99 < ${TARGET_P99_MS} ms`,
        verdict,
      ),
      row('the sandbox (reference server in memory, demo data)', sandbox),
    ],
  );
  console.log(`\nthe mock at ${(mock.rps / sandbox.rps).toFixed(2)}x the sandbox's requests per second`);
  const errors = prism.errors + mock.errors + sandbox.errors;
  if (errors) console.log(`${errors} requests failed or answered non-2xx: the figures are not comparable`);
  return ratio;
}

if (import.meta.main) await mockTable();
