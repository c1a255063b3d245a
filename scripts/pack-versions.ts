// `npm run version:packages`: every package carries the version of the document it was built from
// (`info.version` of the bundle), and depends on exactly that version of the others, so one
// contract version travels with everything built on it (ADR 8). A breaking change of the document
// raises its major version and so the major version of every package. `--check` only reports.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

interface Manifest {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
}

/** The package.json files of the root's workspaces (`dir` or `dir/*` entries). */
export function workspaceManifests(root: string): string[] {
  const { workspaces } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { workspaces: string[] };
  return workspaces
    .flatMap((entry) =>
      entry.endsWith('/*')
        ? readdirSync(join(root, entry.slice(0, -2))).map((dir) => `${entry.slice(0, -2)}/${dir}`)
        : [entry],
    )
    .map((dir) => join(dir, 'package.json'))
    .filter((file) => existsSync(join(root, file)));
}

/** The document's version, which every package takes. */
export function documentVersion(root: string): string {
  return String(JSON.parse(readFileSync(join(root, 'openapi/bundled/openapi.json'), 'utf8')).info.version);
}

/** What differs from the document's version: `file: field is X, not V`. With `write`, fixes it. */
export function syncVersions(root: string, write: boolean): string[] {
  const version = documentVersion(root);
  const manifests = workspaceManifests(root);
  const ours = new Set(manifests.map((f) => (JSON.parse(readFileSync(join(root, f), 'utf8')) as Manifest).name));
  const differences: string[] = [];
  for (const file of manifests) {
    const manifest = JSON.parse(readFileSync(join(root, file), 'utf8')) as Manifest;
    const before = differences.length;
    if (manifest.version !== version) differences.push(`${file}: version is ${manifest.version}, not ${version}`);
    manifest.version = version;
    for (const [name, range] of Object.entries(manifest.dependencies ?? {}))
      if (ours.has(name) && range !== version) {
        differences.push(`${file}: ${name} is ${range}, not ${version}`);
        (manifest.dependencies as Record<string, string>)[name] = version;
      }
    if (write && differences.length > before) writeFileSync(join(root, file), `${JSON.stringify(manifest, null, 2)}\n`);
  }
  return differences;
}

if (import.meta.main) {
  const check = process.argv.includes('--check');
  const differences = syncVersions(resolve(import.meta.dirname, '..'), !check);
  if (check && differences.length) {
    console.error(
      `Package versions differ from the document (run \`npm run version:packages\`):\n  ${differences.join('\n  ')}`,
    );
    process.exit(1);
  }
  console.log(differences.length ? `updated:\n  ${differences.join('\n  ')}` : 'Package versions follow the document.');
}
