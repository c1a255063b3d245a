import { describe, expect, it } from 'vitest';
import { type HelperProbe, NO_HELPERS, noHelpersFailure } from './target.ts';

const clock = (status: number, body: string): HelperProbe => ({ helper: 'GET /test_helpers/clock', status, body });
const outbox = (status: number, body: string): HelperProbe => ({ helper: 'GET /test_helpers/outbox', status, body });
const leftOut = (helper: string): HelperProbe => ({ helper, outOfScope: true });
const NOT_FOUND = '{"success":false,"message":"Not found"}';
const FAILED = '{"success":false,"message":"Internal server error"}';

describe('noHelpersFailure: a test needing the test helpers on a target where no probe found them', () => {
  it.each([
    ['a target without test mode (helpers 404), no --require-all: skips', [clock(404, NOT_FOUND)], false, undefined],
    ['helpers failing (500), no --require-all: skips', [clock(500, FAILED)], false, undefined],
    [
      'helpers 404 with --require-all: fails, naming what each probe got',
      [clock(404, NOT_FOUND), outbox(404, NOT_FOUND)],
      true,
      `${NO_HELPERS}: --require-all makes a target without working test helpers a failure (GET /test_helpers/clock answered 404 ${NOT_FOUND}; GET /test_helpers/outbox answered 404 ${NOT_FOUND})`,
    ],
    [
      'helpers failing (500) with --require-all: fails',
      [clock(500, FAILED)],
      true,
      `${NO_HELPERS}: --require-all makes a target without working test helpers a failure (GET /test_helpers/clock answered 500 ${FAILED})`,
    ],
    [
      'a probe that got no answer, with --require-all: fails saying so',
      [{ helper: 'GET /test_helpers/clock' }],
      true,
      `${NO_HELPERS}: --require-all makes a target without working test helpers a failure (GET /test_helpers/clock did not answer)`,
    ],
    [
      'every probe left out by --operations (nothing sent), with --require-all: skips',
      [leftOut('GET /test_helpers/clock'), leftOut('GET /test_helpers/outbox')],
      true,
      undefined,
    ],
    [
      'one probe left out by --operations, another 404, with --require-all: fails naming the one sent',
      [leftOut('GET /test_helpers/clock'), outbox(404, NOT_FOUND)],
      true,
      `${NO_HELPERS}: --require-all makes a target without working test helpers a failure (GET /test_helpers/outbox answered 404 ${NOT_FOUND})`,
    ],
  ] as const)('%s', (_, probes, requireAll, want) => {
    expect(noHelpersFailure([...probes], requireAll)).toBe(want);
  });
});
