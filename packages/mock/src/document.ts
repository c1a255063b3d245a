// Where the mock finds the document it serves, in one function: the @marketplace/openapi package,
// so the mock serves the contract version it was released with (in this repository, the bundle).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

// biome-ignore lint/suspicious/noExplicitAny: the bundled OpenAPI document is plain JSON
export type Json = any;

/** The bundled document of the @marketplace/openapi package this package serves. */
export function locateDocument(): string {
  return createRequire(import.meta.url).resolve('@marketplace/openapi/openapi.json');
}

export const readDocument = (path: string): Json => JSON.parse(readFileSync(path, 'utf8'));
