// The API in the tools people already use, generated from the bundle by `npm run build` into
// openapi/tools/ and shipped in @marketplace/openapi (ADR 0023): a Postman collection
// (tools-postman.ts), a Bruno collection (tools-bruno.ts), and llms.txt with one Markdown page per
// operation (tools-llms.ts), all from the same operations (tools-operations.ts).

import type { Json } from '../packages/contract/src/document.ts';
import { bruno } from './tools-bruno.ts';
import { llms } from './tools-llms.ts';
import { toolOperations } from './tools-operations.ts';
import { postman } from './tools-postman.ts';

/** The text of every tool file, by path relative to TOOLS_DIR (generated-files.ts). */
export function toolFiles(doc: Json): Record<string, string> {
  const operations = toolOperations(doc);
  return { ...postman(doc, operations), ...bruno(doc, operations), ...llms(doc, operations) };
}
