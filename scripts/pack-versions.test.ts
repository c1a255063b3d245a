// Package versions follow the document: the repository agrees, and the sync rewrites versions and
// the pins between our packages (never third-party ranges) in a scratch copy.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { documentVersion, syncVersions, workspaceManifests } from './pack-versions.ts';

const repo = resolve(import.meta.dirname, '..');
let scratch: string | undefined;
afterEach(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('package versions', () => {
  it('are, in this repository, the version of the document, pins between our packages included', () => {
    expect(workspaceManifests(repo)).toEqual(
      expect.arrayContaining(['openapi/package.json', 'conformance/package.json']),
    );
    expect(syncVersions(repo, false)).toEqual([]);
  });

  it('follow a raised document version: every package and every pin to one of ours', () => {
    scratch = mkdtempSync(join(tmpdir(), 'versions-'));
    const root = scratch;
    writeFileSync(join(root, 'package.json'), JSON.stringify({ workspaces: ['openapi', 'packages/*'] }));
    mkdirSync(join(root, 'openapi/bundled'), { recursive: true });
    writeFileSync(join(root, 'openapi/bundled/openapi.json'), JSON.stringify({ info: { version: '2.0.0' } }));
    cpSync(join(repo, 'openapi/package.json'), join(root, 'openapi/package.json'));
    for (const dir of ['client', 'types']) {
      mkdirSync(join(root, 'packages', dir), { recursive: true });
      cpSync(join(repo, 'packages', dir, 'package.json'), join(root, 'packages', dir, 'package.json'));
    }
    expect(documentVersion(root)).toBe('2.0.0');
    expect(syncVersions(root, true)).toEqual([
      'openapi/package.json: version is 1.0.0, not 2.0.0',
      'packages/client/package.json: version is 1.0.0, not 2.0.0',
      'packages/client/package.json: @marketplace/types is 1.0.0, not 2.0.0',
      'packages/types/package.json: version is 1.0.0, not 2.0.0',
    ]);
    const client = JSON.parse(readFileSync(join(root, 'packages/client/package.json'), 'utf8'));
    expect(client.version).toBe('2.0.0');
    expect(client.dependencies['@marketplace/types']).toBe('2.0.0');
    expect(client.dependencies['openapi-fetch']).toBe(
      JSON.parse(readFileSync(join(repo, 'packages/client/package.json'), 'utf8')).dependencies['openapi-fetch'],
    );
    expect(syncVersions(root, false)).toEqual([]);
  });

  it("pin the suite's vitest exactly to the version the lock tests with (a consumer's install has no lock)", () => {
    const manifest = JSON.parse(readFileSync(join(repo, 'conformance/package.json'), 'utf8'));
    const lock = JSON.parse(readFileSync(join(repo, 'package-lock.json'), 'utf8'));
    // A caret range let a fresh install take a vitest release whose sibling packages its registry
    // did not serve yet (ADR 0008); the suite also drives vitest's runner API, tested at one version.
    expect(manifest.dependencies.vitest).toBe(lock.packages['node_modules/vitest'].version);
  });
});
