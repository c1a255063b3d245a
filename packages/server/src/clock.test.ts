import { describe, expect, it } from 'vitest';
import { createTestClock } from './clock.ts';

const fixed = (ms: number) => ({ nowMs: () => ms, now: () => Math.floor(ms / 1000) });

describe('the test clock', () => {
  it('follows its base until moved', () => {
    expect(createTestClock(fixed(1_700_000_000_500)).now()).toBe(1_700_000_000);
  });
  it('advances, sets and resets', async () => {
    const clock = createTestClock(fixed(1_700_000_000_000));
    await clock.advance(90);
    expect(clock.now()).toBe(1_700_000_090);
    clock.set(1_800_000_000);
    expect(clock.now()).toBe(1_800_000_000);
    clock.reset();
    expect(clock.now()).toBe(1_700_000_000);
  });
});
