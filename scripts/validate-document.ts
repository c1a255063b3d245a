// `npm run validate`: checks the bundles with validators nobody here wrote: the official OpenAPI 3.1
// JSON Schema with its schema dialect (the `schema-base` that @hyperjump/json-schema ships) and
// Spectral's `spectral:oas` ruleset. Any error fails; Spectral warnings are printed.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { validate } from '@hyperjump/json-schema/openapi-3-1';

const root = resolve(import.meta.dirname, '..');

/**
 * Errors of `doc` against the official OAS 3.1 schema with its JSON Schema dialect (`schema-base`,
 * which also checks every Schema Object), evaluated by Hyperjump, a complete 2020-12 implementation
 * (Ajv's `$dynamicRef` support cannot evaluate the official schema).
 */
export async function officialSchemaErrors(doc: unknown): Promise<string[]> {
  const output = await validate('https://spec.openapis.org/oas/3.1/schema-base', doc as never, 'BASIC');
  if (output.valid) return [];
  return (output.errors ?? []).map((e) => `${e.instanceLocation} ${e.absoluteKeywordLocation}`);
}

/** Spectral `spectral:oas` findings of severity error (0) for a bundle file. */
export function spectralErrors(file: string): string[] {
  let out = '';
  try {
    out = execFileSync(
      resolve(root, 'node_modules/.bin/spectral'),
      [
        'lint',
        file,
        '--ruleset',
        resolve(root, '.spectral.yaml'),
        '--format',
        'json',
        '--fail-severity',
        'error',
        '--quiet',
      ],
      { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
  } catch (error) {
    out = (error as { stdout?: string }).stdout ?? '';
    if (!out.trim().startsWith('[')) throw error;
  }
  const findings = JSON.parse(out || '[]') as { code: string; message: string; severity: number; path: string[] }[];
  for (const f of findings.filter((x) => x.severity > 0))
    console.warn(`spectral ${f.code}: ${f.message} at ${f.path.join('.')}`);
  return findings.filter((f) => f.severity === 0).map((f) => `${f.code}: ${f.message} at ${f.path.join('.')}`);
}

if (import.meta.main) {
  let failed = false;
  for (const rel of ['openapi/bundled/openapi.json', 'openapi/bundled/test-helpers.json']) {
    const file = resolve(root, rel);
    const errors = [...(await officialSchemaErrors(JSON.parse(readFileSync(file, 'utf8')))), ...spectralErrors(file)];
    console.log(`${rel}: ${errors.length === 0 ? 'valid (OAS 3.1 schema, spectral:oas)' : `${errors.length} errors`}`);
    for (const e of errors) console.error(`  ${e}`);
    failed ||= errors.length > 0;
  }
  if (failed) process.exit(1);
}
