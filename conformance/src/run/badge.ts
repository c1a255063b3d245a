// `--reporter badge`: badge.svg to show in a README, and summary.json, the run's result in a form
// a team can publish as a CI artefact: the target, the document (version and SHA-256 of the bundled
// file the suite checked against), the suite's version, the date and the counts, sealed by a digest.
// The seal is a SHA-256 over the canonical JSON of every other field (keys sorted, no spaces), so
// any edit of the file shows; with CONFORMANCE_SIGNING_KEY set it is an HMAC-SHA256 with that key,
// so only a holder of the key (the CI) can produce it. `marketplace-conformance verify` checks it.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { DOCUMENT_PATH, document } from '../oracle/document.ts';
import type { OperationState } from './progress.ts';
import { esc, type RunResult } from './report.ts';

// By the package's own name (its `exports` lists package.json), not by a path from this file: the
// source sits at src/run/badge.ts and the build at dist/src/run/badge.js, one folder deeper.
const SUITE_PACKAGE = createRequire(import.meta.url).resolve('@marketplace/conformance/package.json');

export interface Seal {
  algorithm: 'sha256' | 'hmac-sha256';
  /** Hex digest of the canonical JSON of the summary without its seal. */
  value: string;
}

export interface RunSummary {
  target: string;
  document: { title: string; version: string; sha256: string };
  suite: { name: string; version: string };
  date: string;
  level: string;
  readOnly: boolean;
  result: 'passed' | 'failed';
  counts: { passed: number; failed: number; skipped: number; total: number; known?: number };
  /** How far the target is: operations implemented, passing, failing, not implemented, not in scope. */
  operations?: {
    of: number;
    implemented: number;
    passing: number;
    failing: number;
    notImplemented: number;
    notInScope: number;
  };
  requireAll?: boolean;
  coverage: RunResult['coverage'];
  /** Each operation's state: what `--previous` compares a later run with (newly implemented, fixed). */
  states?: Record<string, OperationState>;
  /** The names of the tests that failed, known ones included: what `--previous` compares with. */
  failures?: string[];
  seal?: Seal;
}

/** JSON with every object's keys sorted and no whitespace: one text per value. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

function digest(summary: RunSummary, key: string | undefined): Seal {
  const { seal: _, ...rest } = summary;
  const text = canonical(rest);
  return key
    ? { algorithm: 'hmac-sha256', value: createHmac('sha256', key).update(text).digest('hex') }
    : { algorithm: 'sha256', value: createHash('sha256').update(text).digest('hex') };
}

/** Whether a summary's seal matches its content (an HMAC seal needs the key). */
export function verifySummary(summary: RunSummary, key?: string): boolean {
  if (!summary.seal) return false;
  if (summary.seal.algorithm === 'hmac-sha256' && !key) return false;
  const expected = Buffer.from(digest(summary, summary.seal.algorithm === 'sha256' ? undefined : key).value, 'hex');
  const actual = Buffer.from(summary.seal.value, 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** The sealed summary of a run. */
export function runSummary(
  result: RunResult,
  key = process.env.CONFORMANCE_SIGNING_KEY,
  date = new Date(),
): RunSummary {
  const suite = JSON.parse(readFileSync(SUITE_PACKAGE, 'utf8')) as { name: string; version: string };
  const summary: RunSummary = {
    target: result.target,
    document: {
      title: document.info.title,
      version: document.info.version,
      sha256: createHash('sha256').update(readFileSync(DOCUMENT_PATH)).digest('hex'),
    },
    suite: { name: suite.name, version: suite.version },
    date: date.toISOString(),
    level: result.level,
    readOnly: result.readOnly,
    result: result.failed.length ? 'failed' : 'passed',
    counts: {
      passed: result.passed,
      failed: result.failed.length,
      skipped: result.skipped.length,
      total: result.outcomes.length,
      ...(result.known.length ? { known: result.known.length } : {}),
    },
    operations: {
      of: result.progress.of,
      implemented: result.progress.implemented,
      passing: result.progress.passing,
      failing: result.progress.failing,
      notImplemented: result.progress.notImplemented,
      notInScope: result.progress.notInScope,
    },
    ...(result.requireAll ? { requireAll: true } : {}),
    coverage: result.coverage,
    states: Object.fromEntries(result.progress.operations.map((r) => [r.operation, r.state])),
    failures: result.outcomes.filter((o) => o.state === 'failed').map((o) => o.name),
  };
  return { ...summary, seal: digest(summary, key || undefined) };
}

/**
 * A flat two-part badge in the usual README style: `conformance | 777 passed`, with the operations
 * implemented when not all are (`17/104 operations, 202 passed`) and the known failures of a baseline.
 */
export function badgeSvg(summary: Pick<RunSummary, 'counts' | 'result' | 'operations'>): string {
  const label = 'conformance';
  const ops = summary.operations;
  const partial = ops && ops.implemented < ops.of ? `${ops.implemented}/${ops.of} operations, ` : '';
  const known = summary.counts.known ? `, ${summary.counts.known} known` : '';
  const value =
    summary.result === 'passed'
      ? `${partial}${summary.counts.passed} passed${known}`
      : `${partial}${summary.counts.failed} failed of ${summary.counts.passed + summary.counts.failed}${known}`;
  const colour = summary.result === 'passed' ? '#4c1' : '#e05d44';
  const width = (s: string) => s.length * 7 + 12;
  const [lw, vw] = [width(label), width(value)];
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${lw + vw}" height="20" role="img" aria-label="${esc(label)}: ${esc(value)}"><title>${esc(label)}: ${esc(value)}</title>
<rect width="${lw}" height="20" fill="#555"/><rect x="${lw}" width="${vw}" height="20" fill="${colour}"/>
<g fill="#fff" text-anchor="middle" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11"><text x="${lw / 2}" y="14">${esc(label)}</text><text x="${lw + vw / 2}" y="14">${esc(value)}</text></g></svg>
`;
}

/** Writes badge.svg and summary.json into the out directory. */
export function writeBadge(out: string, result: RunResult): RunSummary {
  const summary = runSummary(result);
  writeFileSync(join(out, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  writeFileSync(join(out, 'badge.svg'), badgeSvg(summary));
  return summary;
}
