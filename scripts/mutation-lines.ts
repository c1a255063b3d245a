import fc from 'fast-check';

// Which lines of a source file `npm run mutation` mutates (ADR 0037). A sample is a seeded subset of
// the file's line numbers, drawn the same way every time for a file of the same length, so a later
// run can take exactly the lines earlier samples left out (`--rest-of 0.1:2,0.3:3`) and the runs
// of one file add up to the whole of it without drawing a line twice.

/** A seeded `fraction` of the lines 1..`count`, ascending. */
export function sampledLines(count: number, fraction: number, seed: number): number[] {
  const lines = Array.from({ length: count }, (_, i) => i + 1);
  if (fraction >= 1) return lines;
  const size = Math.max(1, Math.round(count * fraction));
  const [picked = []] = fc.sample(fc.shuffledSubarray(lines, { minLength: size, maxLength: size }), {
    seed,
    numRuns: 1,
  });
  return picked.sort((a, b) => a - b);
}

/** The lines 1..`count` that none of the earlier samples (`[fraction, seed]` each) took, ascending. */
export function restLines(count: number, earlier: readonly (readonly [number, number])[]): number[] {
  const taken = new Set(earlier.flatMap(([fraction, seed]) => sampledLines(count, fraction, seed)));
  return Array.from({ length: count }, (_, i) => i + 1).filter((line) => !taken.has(line));
}

/** Ascending line numbers as Stryker's ranges, neighbours joined: `[2,3,4,9]` → `2-4`, `9-9`. */
export function lineRanges(lines: readonly number[]): [number, number][] {
  const ranges: [number, number][] = [];
  for (const line of lines) {
    const last = ranges.at(-1);
    if (last && last[1] === line - 1) last[1] = line;
    else ranges.push([line, line]);
  }
  return ranges;
}

/** `0.1:2,0.3:3` → `[[0.1, 2], [0.3, 3]]`; undefined for a malformed list. */
export function parseSamples(text: string): [number, number][] | undefined {
  const samples = text.split(',').map((part) => part.split(':').map(Number));
  const ok = samples.every(
    (s) => s.length === 2 && (s[0] as number) > 0 && (s[0] as number) <= 1 && Number.isSafeInteger(s[1]),
  );
  return ok ? (samples as [number, number][]) : undefined;
}
