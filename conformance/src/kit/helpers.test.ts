import { describe, expect, it } from 'vitest';
import { noCredentialsFailure } from './helpers.ts';

describe('noCredentialsFailure: a test of a logged-in route left without credentials', () => {
  it.each([
    ['a Connected route, no --require-all: skips', false, false, undefined],
    ['an admin route, no --require-all: skips', true, false, undefined],
    [
      'a Connected route with --require-all: fails, saying what to give',
      false,
      true,
      'no credentials for a Connected route: the target has no test helpers to create an account (give --api-key): --require-all makes a test without credentials a failure',
    ],
    [
      'an admin route with --require-all: fails, naming the admin key',
      true,
      true,
      'no credentials for an admin route: the target has no test helpers to create an account (give --admin-api-key): --require-all makes a test without credentials a failure',
    ],
  ] as const)('%s', (_, admin, requireAll, want) => {
    expect(noCredentialsFailure(admin, requireAll)).toBe(want);
  });
});
