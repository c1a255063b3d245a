// `init` and `update` on a folder: read the document and the generator's templates, plan
// (plan.ts) against the manifest and the files as they are, write, and say what happened.
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { BUNDLED_DOCUMENT, type Json, readDocument } from '../document.ts';
import { stubOperations } from './operations.ts';
import { hashText, MANIFEST, type Manifest, type Plan, planStubs } from './plan.ts';

/** The package's root: the templates and package.json sit beside src/ (or dist/). */
const PACKAGE_ROOT = resolve(import.meta.dirname, '../..');
const TEMPLATE_DIR = join(PACKAGE_ROOT, 'stub-template');

const versionOf = (manifestPath: string): string => JSON.parse(readFileSync(manifestPath, 'utf8')).version;

/** The version of an installed package of ours (a workspace inside the repository). */
function installedVersion(name: string): string {
  for (let dir = PACKAGE_ROOT; dir !== dirname(dir); dir = dirname(dir)) {
    for (const candidate of [
      join(dir, 'node_modules', name, 'package.json'),
      join(dir, name.split('/')[1]!, 'package.json'),
    ])
      if (existsSync(candidate) && JSON.parse(readFileSync(candidate, 'utf8')).name === name)
        return versionOf(candidate);
  }
  return versionOf(join(PACKAGE_ROOT, 'package.json'));
}

/** Where a project keeps the packages it installs without a registry (`init --packages`). */
export const VENDOR_DIR = 'vendor';

/**
 * Our packages a generated project installs, each at the version this generator goes with: the
 * three it names and the document they all read (named too, so that npm takes its tarball rather
 * than asking a registry for it).
 */
function ourPackages(): Map<string, string> {
  return new Map([
    ['@marketplace/openapi', installedVersion('@marketplace/openapi')],
    ['@marketplace/types', installedVersion('@marketplace/types')],
    ['@marketplace/contract', versionOf(join(PACKAGE_ROOT, 'package.json'))],
    ['@marketplace/conformance', installedVersion('@marketplace/conformance')],
  ]);
}

/** The file `npm pack` writes for a package: `@marketplace/types` 1.0.0 is `marketplace-types-1.0.0.tgz`. */
export const tarballName = (name: string, version: string): string =>
  `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;

/** Copies our packages' tarballs from `from` (what `npm run pack` wrote) into the project's vendor folder. */
function vendorPackages(dir: string, from: string): void {
  const missing = [...ourPackages()]
    .map(([name, version]) => tarballName(name, version))
    .filter((file) => !existsSync(join(from, file)));
  if (missing.length)
    throw new Error(`${from} has no ${missing.join(', ')} (the repository's \`npm run pack\` writes them)`);
  mkdirSync(join(dir, VENDOR_DIR), { recursive: true });
  for (const [name, version] of ourPackages())
    copyFileSync(join(from, tarballName(name, version)), join(dir, VENDOR_DIR, tarballName(name, version)));
}

/**
 * The project's package.json with our packages as `file:` dependencies on its vendor folder, when
 * that holds them all: `npm install` and `npm ci` (so the CI workflow, on a clean clone with the
 * folder committed) then need no registry for them.
 */
function withVendoredPackages(manifestText: string, dir: string): string {
  const packages = ourPackages();
  const file = (name: string) => `${VENDOR_DIR}/${tarballName(name, packages.get(name)!)}`;
  if ([...packages.keys()].some((name) => !existsSync(join(dir, file(name))))) return manifestText;
  const manifest = JSON.parse(manifestText);
  for (const [name] of packages) {
    const field = name in (manifest.devDependencies ?? {}) ? 'devDependencies' : 'dependencies';
    const deps: Record<string, string> = { ...manifest[field], [name]: `file:${file(name)}` };
    // In npm's order, so that its first install leaves the file as it is.
    manifest[field] = Object.fromEntries(Object.entries(deps).sort(([a], [b]) => a.localeCompare(b, 'en')));
  }
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/**
 * The generator's fixed files, by their path in the project (`_github/` is `.github/`, `_gitignore`
 * `.gitignore`); with `dir`, its package.json takes the packages of its vendor folder when there.
 */
export function templates(projectName: string, dir?: string): Map<string, string> {
  const values: Record<string, string> = {
    name: projectName,
    contractVersion: versionOf(join(PACKAGE_ROOT, 'package.json')),
    typesVersion: installedVersion('@marketplace/types'),
    conformanceVersion: installedVersion('@marketplace/conformance'),
  };
  const files = new Map<string, string>();
  for (const file of readdirSync(TEMPLATE_DIR, { recursive: true, encoding: 'utf8' }).sort()) {
    const path = join(TEMPLATE_DIR, file);
    if (!statSync(path).isFile()) continue;
    const text = readFileSync(path, 'utf8').replace(/\{\{(\w+)\}\}/g, (all, key: string) => values[key] ?? all);
    files.set(file.replace(/^_/, '.').split('\\').join('/'), text);
  }
  const manifest = files.get('package.json');
  if (dir && manifest !== undefined) files.set('package.json', withVendoredPackages(manifest, dir));
  return files;
}

export interface StubOptions {
  /** The bundled document to generate from (default: the installed @marketplace/openapi's). */
  document?: string;
  /**
   * A folder of our packages' tarballs (`npm run pack`): copied into the project's vendor folder,
   * which its package.json then installs from, for a team without access to a registry holding them.
   */
  packages?: string;
}

export interface StubRun extends Plan {
  dir: string;
  written: string[];
  deleted: string[];
}

function run(dir: string, previous: Manifest | undefined, options: StubOptions): StubRun {
  const doc: Json = readDocument(options.document ?? BUNDLED_DOCUMENT);
  if (options.packages) vendorPackages(dir, options.packages);
  const plan = planStubs({
    ops: stubOperations(doc),
    version: String(doc.info?.version ?? ''),
    generator: versionOf(join(PACKAGE_ROOT, 'package.json')),
    templates: templates(basename(resolve(dir)), dir),
    previous,
    hashOf: (path) => {
      const file = join(dir, path);
      return existsSync(file) ? hashText(readFileSync(file, 'utf8')) : undefined;
    },
  });
  const written: string[] = [];
  const deleted: string[] = [];
  for (const [path, text] of plan.writes) {
    const file = join(dir, path);
    if (text === null) {
      rmSync(file, { force: true });
      deleted.push(path);
      continue;
    }
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    written.push(path);
  }
  writeFileSync(join(dir, MANIFEST), `${JSON.stringify(plan.manifest, null, 2)}\n`);
  return { ...plan, dir, written, deleted };
}

/** Writes a new project into `dir` (which must not hold one). */
export function initProject(dir: string, options: StubOptions = {}): StubRun {
  if (existsSync(join(dir, MANIFEST))) throw new Error(`${dir} already holds generated stubs: run update`);
  if (existsSync(join(dir, 'package.json'))) throw new Error(`${dir} already holds a project (package.json)`);
  mkdirSync(dir, { recursive: true });
  return run(dir, undefined, options);
}

/** Brings the stubs of `dir` to the document: new stubs, untouched files rewritten, edited ones reported. */
export function updateProject(dir: string, options: StubOptions = {}): StubRun {
  const manifest = join(dir, MANIFEST);
  if (!existsSync(manifest)) throw new Error(`${dir} has no ${MANIFEST}: generate it with init first`);
  return run(dir, JSON.parse(readFileSync(manifest, 'utf8')), options);
}

/** What a run did, for people. */
export function describeRun(result: StubRun, cwd = process.cwd()): string {
  const at = relative(cwd, result.dir) || '.';
  const lines = [
    `${at}: stubs for document ${result.manifest.document}; ${result.added.length} new operation${result.added.length === 1 ? '' : 's'} stubbed, ${result.written.length} files written`,
  ];
  const list = (title: string, items: { operationId: string; file: string }[]) => {
    if (items.length === 0) return;
    lines.push(title);
    for (const i of items) lines.push(`  ${i.operationId} (${i.file})`);
  };
  list(
    'Changed since you wrote their handler (tsc shows them: look at each again, then take the stamp of src/generated/revisions.ts):',
    result.changed,
  );
  list('No longer in the document (delete their handler):', result.removed);
  if (result.kept.length) lines.push(`Left as you edited them: ${result.kept.join(', ')}`);
  return lines.join('\n');
}
