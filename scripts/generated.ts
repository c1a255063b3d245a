// Produces every generated artifact of the document (bundles, types and the tool files of
// scripts/tools.ts) into a target folder, so
// `build` can write them into the repository and `check-generated` can compare a fresh copy with
// what is committed. Everything downstream reads the bundle only.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { stringify } from 'yaml';
import { indexOperations } from '../packages/contract/src/operation-index.ts';
import { GENERATED_NOTE, TOOLS_DIR } from './generated-files.ts';
import { toolFiles } from './tools.ts';

/** The generated files, relative to the repository root. */
export const ARTIFACTS = [
  'openapi/bundled/openapi.json',
  'openapi/bundled/openapi.yaml',
  'openapi/bundled/test-helpers.json',
  'openapi/bundled/test-helpers.yaml',
  'packages/types/src/openapi.ts',
  'packages/types/src/test-helpers.ts',
  'packages/types/src/operation-index.ts',
  'packages/types/src/test-helper-index.ts',
] as const;

/** Bundles one API of redocly.yaml with the Redocly CLI and returns the parsed document. */
function bundle(repoRoot: string, api: string): Record<string, unknown> {
  const tmp = mkdtempSync(join(tmpdir(), 'bundle-'));
  try {
    const out = join(tmp, 'out.json');
    execFileSync(join(repoRoot, 'node_modules/.bin/redocly'), ['bundle', api, '-o', out, '--lint-config', 'off'], {
      cwd: repoRoot,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', NO_COLOR: '1' },
    });
    return JSON.parse(readFileSync(out, 'utf8'));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** Marks a bundle as generated: a first `x-generated` key, since JSON has no comments. */
function marked(doc: Record<string, unknown>): Record<string, unknown> {
  const { 'x-generated': _drop, ...rest } = doc;
  return { 'x-generated': GENERATED_NOTE, ...rest };
}

async function types(doc: Record<string, unknown>): Promise<string> {
  const ast = await openapiTS(doc as never, { alphabetize: false, exportType: false });
  return `// ${GENERATED_NOTE}\n// Source: ${doc['x-source']}\n\n${astToString(ast)}`;
}

interface OperationEntry {
  operationId: string;
  permission: string;
  messages: string[];
}

/** Each operation's ID, permission level and distinct documented messages, by path and method. */
function indexByPath(doc: Record<string, unknown>): Record<string, Record<string, OperationEntry>> {
  const index: Record<string, Record<string, OperationEntry>> = {};
  for (const op of indexOperations(doc).values()) {
    index[op.path] ??= {};
    index[op.path]![op.method.toLowerCase()] = {
      operationId: op.operationId,
      permission: String(op.permission ?? ''),
      messages: [...new Set(op.errorMessages.map((m) => m.message))],
    };
  }
  return index;
}

/**
 * What the types cannot say: each operation's ID, permission level and documented business error
 * messages (`x-error-messages`), by path and method, as literal types. The client names the
 * operation of an error with it and types a 300's message as the union of the documented ones;
 * the server's handlers may answer only those (by operationId, types/src/operation-types.ts).
 * Written from the contract's `indexOperations`, the table the server and the mock read at run
 * time, so the operation facts have one derivation.
 */
export function operationIndex(doc: Record<string, unknown>): string {
  const globals = ((doc['x-global-error-messages'] as { message: string }[] | undefined) ?? []).map((m) => m.message);
  return [
    `// ${GENERATED_NOTE}`,
    `// Source: ${doc['x-source']}`,
    '',
    '/** Operation ID, permission level and documented business error messages, by path and method. */',
    `export const operationIndex = ${JSON.stringify(indexByPath(doc), null, 2)} as const;`,
    '',
    '/** Messages any operation may answer (`x-global-error-messages`; `<field>` stands for a field name). */',
    `export const globalErrorMessages = ${JSON.stringify(globals, null, 2)} as const;`,
    '',
  ].join('\n');
}

/**
 * The same index for the test-helpers document: the reference server registers its helpers by
 * operationId from it, and a helper may answer only the messages its operation documents.
 */
export function testHelperIndex(doc: Record<string, unknown>): string {
  return [
    `// ${GENERATED_NOTE}`,
    `// Source: ${doc['x-source']}`,
    '',
    '/** Test-helper operation ID, permission level and documented error messages, by path and method. */',
    `export const testHelperIndex = ${JSON.stringify(indexByPath(doc), null, 2)} as const;`,
    '',
  ].join('\n');
}

/** Writes every artifact under `outRoot` (the repository root or a scratch copy). */
export async function generate(repoRoot: string, outRoot: string): Promise<void> {
  const api = marked({ 'x-source': 'openapi/openapi.yaml', ...bundle(repoRoot, 'marketplace') });
  const helpers = marked({ 'x-source': 'openapi/test-helpers.yaml', ...bundle(repoRoot, 'test-helpers') });
  const files: Record<(typeof ARTIFACTS)[number], string> = {
    'openapi/bundled/openapi.json': `${JSON.stringify(api, null, 2)}\n`,
    'openapi/bundled/openapi.yaml': `# ${GENERATED_NOTE}\n${stringify(api, { lineWidth: 0 })}`,
    'openapi/bundled/test-helpers.json': `${JSON.stringify(helpers, null, 2)}\n`,
    'openapi/bundled/test-helpers.yaml': `# ${GENERATED_NOTE}\n${stringify(helpers, { lineWidth: 0 })}`,
    'packages/types/src/openapi.ts': await types(api),
    'packages/types/src/test-helpers.ts': await types(helpers),
    'packages/types/src/operation-index.ts': operationIndex(api),
    'packages/types/src/test-helper-index.ts': testHelperIndex(helpers),
  };
  // The tool files are a folder: written anew, so an operation taken out leaves no page behind.
  rmSync(join(outRoot, TOOLS_DIR), { recursive: true, force: true });
  const tools = Object.entries(toolFiles(api)).map(([rel, text]) => [`${TOOLS_DIR}/${rel}`, text]);
  for (const [rel, text] of [...Object.entries(files), ...tools] as [string, string][]) {
    const target = join(outRoot, rel);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text);
  }
}

/** Every file under the tool folder of `root`, relative to `root` (none when it is missing). */
export function toolArtifacts(root: string): string[] {
  try {
    return (readdirSync(join(root, TOOLS_DIR), { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name).slice(root.length + 1))
      .sort();
  } catch {
    return [];
  }
}
