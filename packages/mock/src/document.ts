// Where the mock finds the document it serves, in one function: the @marketplace/openapi package,
// so the mock serves the contract version it was released with (in this repository, the bundle).
// Reading and resolving it are the contract's (`readDocument`, `resolveRef`), as for every package.
import { createRequire } from 'node:module';

export type { Json } from '@marketplace/contract';

/** The bundled document of the @marketplace/openapi package this package serves. */
export function locateDocument(): string {
  return createRequire(import.meta.url).resolve('@marketplace/openapi/openapi.json');
}
