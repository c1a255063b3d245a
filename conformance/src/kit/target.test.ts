import { describe, expect, it } from 'vitest';
import { type HelperProbe, helperAsks, NO_HELPERS, noHelpersFailure } from './target.ts';

const clock = (status: number, body: string): HelperProbe => ({ helper: 'GET /test_helpers/clock', status, body });
const outbox = (status: number, body: string): HelperProbe => ({ helper: 'GET /test_helpers/outbox', status, body });
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
    ['no probe sent (--read-only), with --require-all: skips', [], true, undefined],
  ] as const)('%s', (_, probes, requireAll, want) => {
    expect(noHelpersFailure([...probes], requireAll)).toBe(want);
  });
});

describe('helperAsks: what is asked to find the test helpers, whatever API operations --operations names', () => {
  const asked = (scope: string[] | undefined, readOnly = false) => {
    const { asks, claimed } = helperAsks(scope && new Set(scope), readOnly);
    return { asks: asks.map((a) => `${a.method} ${a.path}${a.json ? ` ${JSON.stringify(a.json)}` : ''}`), claimed };
  };
  const reading = {
    asks: ['GET /test_helpers/clock', 'GET /test_helpers/outbox?channel=email', 'GET /test_helpers/platform/offers'],
    claimed: false,
  };
  it.each([
    ['no --operations: the three reading helpers', undefined, false, reading],
    [
      'a list naming API operations only: every helper callable, the same three',
      ['POST /item/buyorder'],
      false,
      reading,
    ],
    [
      'a list naming helpers but no reading one: those taking a body, sent one they refuse, path parameters last',
      [
        'POST /item/buyorder',
        'POST /test_helpers/payments/{cashoutId}',
        'POST /test_helpers/users',
        'POST /test_helpers/reset',
      ],
      false,
      { asks: ['POST /test_helpers/users []', 'POST /test_helpers/payments/0 []'], claimed: false },
    ],
    [
      'a list naming a reading helper and one taking a body: the reading one first',
      ['POST /test_helpers/assets', 'GET /test_helpers/clock'],
      false,
      { asks: ['GET /test_helpers/clock', 'POST /test_helpers/assets []'], claimed: false },
    ],
    [
      'a list naming only the reset (no request to it changes nothing): nothing asked, taken at its word',
      ['POST /user/login', 'POST /test_helpers/reset'],
      false,
      { asks: [], claimed: true },
    ],
    [
      '--read-only: no POST, the named reading helpers only',
      ['POST /test_helpers/users', 'GET /test_helpers/outbox'],
      true,
      { asks: ['GET /test_helpers/outbox?channel=email'], claimed: false },
    ],
  ] as const)('%s', (_, scope, readOnly, want) => {
    expect(asked(scope && [...scope], readOnly)).toEqual(want);
  });

  const [users] = helperAsks(new Set(['POST /test_helpers/users']), false).asks;
  const [clock] = helperAsks(undefined, false).asks;
  it.each([
    [
      'a POST helper refusing the body: 300 with a message in envelope A',
      users,
      300,
      { err: true, success: false, content: 'Invalid request body' },
      true,
    ],
    [
      'a POST helper answering 404 (no test mode)',
      users,
      404,
      { err: true, success: false, content: 'Not found' },
      false,
    ],
    [
      'a POST helper answering 300 without a message string',
      users,
      300,
      { err: true, success: false, content: {} },
      false,
    ],
    ['a POST helper taking the refused body (200)', users, 200, { err: false, success: true, content: {} }, false],
    [
      'the clock answering its documented content',
      clock,
      200,
      { err: false, success: true, content: { now: 1 } },
      true,
    ],
    ['the clock answering another content', clock, 200, { err: false, success: true, content: { time: 1 } }, false],
  ] as const)('whether the target has helpers, from %s', (_, ask, status, body, want) => {
    expect(ask!.answers(status, body)).toBe(want);
  });
});
