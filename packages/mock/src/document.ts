// Where the mock finds the document it serves, in one function: how the document is located is
// the packaging's concern (an installed package finds it elsewhere than this repository does).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

// biome-ignore lint/suspicious/noExplicitAny: the bundled OpenAPI document is plain JSON
export type Json = any;

/** The bundled document (`openapi/bundled/openapi.json`) this package serves. */
export function locateDocument(): string {
  return resolve(import.meta.dirname, '../../../openapi/bundled/openapi.json');
}

export const readDocument = (path: string): Json => JSON.parse(readFileSync(path, 'utf8'));
