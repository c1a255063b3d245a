import { describe, expect, it } from 'vitest';
import { lineRanges, parseSamples, restLines, sampledLines } from './mutation-lines.ts';

// bans.ts (101 parts when split at newlines) as runs A and A2 sampled it, recorded in
// conformance/mutation-survivors.md: a later `--rest-of` must leave out exactly these lines.
const RUN_A = [1, 7, 14, 31, 45, 46, 77, 80, 86, 89];
const RUN_A2 = [
  3, 8, 11, 16, 26, 27, 28, 29, 36, 37, 38, 40, 49, 52, 53, 54, 56, 60, 62, 64, 81, 82, 84, 87, 93, 94, 95, 96, 97, 101,
];

describe('the lines a mutation run takes', () => {
  it('Given a fraction and a seed, then the sample drawn is the one earlier runs drew, and another seed draws another', () => {
    expect(sampledLines(101, 0.1, 2)).toEqual(RUN_A);
    expect(sampledLines(101, 0.3, 3)).toEqual(RUN_A2);
    expect(sampledLines(101, 0.1, 3)).not.toEqual(RUN_A);
    expect(sampledLines(5, 1, 9)).toEqual([1, 2, 3, 4, 5]);
    expect(sampledLines(5, 0.01, 9)).toHaveLength(1);
  });

  it('Given earlier samples, then the rest is every other line, each once, and with the samples makes the whole file', () => {
    const rest = restLines(101, [
      [0.1, 2],
      [0.3, 3],
    ]);
    expect(rest).toHaveLength(101 - RUN_A.length - RUN_A2.length);
    expect(rest.filter((line) => RUN_A.includes(line) || RUN_A2.includes(line))).toEqual([]);
    expect([...rest, ...RUN_A, ...RUN_A2].sort((a, b) => a - b)).toEqual(Array.from({ length: 101 }, (_, i) => i + 1));
    expect(restLines(4, [[1, 1]])).toEqual([]);
  });

  it('Given lines, then neighbours join into one range and a gap starts another', () => {
    expect(lineRanges([2, 3, 4, 9, 11, 12])).toEqual([
      [2, 4],
      [9, 9],
      [11, 12],
    ]);
    expect(lineRanges([])).toEqual([]);
  });

  it('Given a --rest-of list, then fraction:seed pairs are read and a malformed one is refused', () => {
    expect(parseSamples('0.1:2,0.3:3')).toEqual([
      [0.1, 2],
      [0.3, 3],
    ]);
    expect(parseSamples('0.1')).toBeUndefined();
    expect(parseSamples('0:2')).toBeUndefined();
    expect(parseSamples('1.5:2')).toBeUndefined();
    expect(parseSamples('0.1:x')).toBeUndefined();
    expect(parseSamples('0.1:2:3')).toBeUndefined();
  });
});
