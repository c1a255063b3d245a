// `npm run release:document`: records the bundled document as released under its `info.version`
// (`openapi/released/<version>.json`), the snapshot `npm run check:breaking` compares against.
// A released version is never overwritten: raise `info.version` and add its CHANGELOG.md entry.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { releasedVersions } from './breaking-changes.ts';

/** Writes the snapshot of `bundle` into `root`; refuses a version already released or not in the changelog. */
export function releaseDocument(root: string, bundle: string, changelog: string): string {
  const doc = JSON.parse(bundle);
  const version = String(doc.info?.version);
  const target = join(root, 'openapi/released', `${version}.json`);
  if (existsSync(target)) throw new Error(`${version} is already released: raise info.version first.`);
  if (releasedVersions(changelog)[0] !== version)
    throw new Error(`CHANGELOG.md must name ${version} as its newest release (## [${version}] - date) first.`);
  mkdirSync(join(root, 'openapi/released'), { recursive: true });
  writeFileSync(target, bundle);
  return target;
}

if (import.meta.main) {
  const root = resolve(import.meta.dirname, '..');
  try {
    const written = releaseDocument(
      root,
      readFileSync(join(root, 'openapi/bundled/openapi.json'), 'utf8'),
      readFileSync(join(root, 'CHANGELOG.md'), 'utf8'),
    );
    console.log(`wrote ${written}`);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
