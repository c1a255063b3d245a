import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staleArtifacts } from './check-generated.ts';
import { generate } from './generated.ts';

const repo = resolve(import.meta.dirname, '..');

describe('the generated-files check', () => {
  let copy: string;
  beforeAll(async () => {
    // A scratch copy of what the build reads, with freshly generated artifacts.
    copy = mkdtempSync(join(tmpdir(), 'drift-'));
    cpSync(join(repo, 'openapi'), join(copy, 'openapi'), {
      recursive: true,
      filter: (src) => !src.includes('bundled'),
    });
    cpSync(join(repo, 'redocly.yaml'), join(copy, 'redocly.yaml'));
    symlinkSync(join(repo, 'node_modules'), join(copy, 'node_modules'));
    await generate(copy, copy);
  });
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it('passes when the artifacts match the document', async () => {
    expect(await staleArtifacts(copy)).toEqual([]);
  });

  it('fails on a bundle left stale by a change to the document', async () => {
    const file = join(copy, 'openapi/paths/user_login.yaml');
    const original = readFileSync(file, 'utf8');
    writeFileSync(file, original.replace('summary: Log in with an API key', 'summary: Log in with a key'));
    try {
      expect(await staleArtifacts(copy)).toEqual(
        expect.arrayContaining([
          'openapi/bundled/openapi.json',
          'openapi/bundled/openapi.yaml',
          'openapi/tools/operations/postUserLogin.md',
          'openapi/tools/postman/item-marketplace.postman_collection.json',
        ]),
      );
    } finally {
      writeFileSync(file, original);
    }
  });

  it('fails on a generated file edited by hand', async () => {
    const file = join(copy, 'packages/types/src/openapi.ts');
    const original = readFileSync(file, 'utf8');
    writeFileSync(file, `${original}\nexport type HandEdited = true;\n`);
    try {
      expect(await staleArtifacts(copy)).toEqual(['packages/types/src/openapi.ts']);
    } finally {
      writeFileSync(file, original);
    }
  });

  it('fails on a tool file the build no longer writes (an operation taken out)', async () => {
    const file = join(copy, 'openapi/tools/operations/getGone.md');
    writeFileSync(file, '# Gone\n');
    try {
      expect(await staleArtifacts(copy)).toEqual(['openapi/tools/operations/getGone.md']);
    } finally {
      rmSync(file);
    }
  });
});
