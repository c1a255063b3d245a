import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkRelease, releasedVersions } from './breaking-changes.ts';
import { releaseDocument } from './release-document.ts';

const repo = resolve(import.meta.dirname, '..');
const scratch = mkdtempSync(join(tmpdir(), 'release-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('releaseDocument', () => {
  const bundle = JSON.stringify({ openapi: '3.1.0', info: { version: '1.1.0' }, paths: {} });
  it('writes the snapshot under info.version once the changelog names it', () => {
    expect(() => releaseDocument(scratch, bundle, '## [1.0.0] - 2026-11-22\n')).toThrow(/must name 1.1.0/);
    const written = releaseDocument(scratch, bundle, '## [1.1.0] - 2026-12-01\n\n## [1.0.0] - 2026-11-22\n');
    expect(readFileSync(written, 'utf8')).toBe(bundle);
  });
  it('never overwrites a released version', () => {
    expect(() => releaseDocument(scratch, bundle, '## [1.1.0] - 2026-12-01\n')).toThrow(/already released/);
  });
});

describe('the repository', () => {
  const [latest] = releasedVersions(readFileSync(join(repo, 'CHANGELOG.md'), 'utf8'));
  it('names a released version in CHANGELOG.md, with its snapshot', () => {
    expect(latest).toMatch(/^\d+\.\d+\.\d+$/);
    expect(existsSync(join(repo, 'openapi/released', `${latest}.json`))).toBe(true);
  });
  it('has no breaking change against that release without a major version', () => {
    const released = JSON.parse(readFileSync(join(repo, 'openapi/released', `${latest}.json`), 'utf8'));
    const current = JSON.parse(readFileSync(join(repo, 'openapi/bundled/openapi.json'), 'utf8'));
    expect(checkRelease(released, current).problems).toEqual([]);
  });
});
