// The Arazzo workflows of openapi/workflows/ as sections of the docs page. Redoc renders OpenAPI
// only, so each workflow becomes a tag of its own (`x-traitTag`: a page of text, no operations) in
// a "Workflows" group of the navigation, whose description lists the steps: the operation each
// calls (linked to its section of the reference), what it checks and what it keeps for later.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { Json } from '../packages/contract/src/document.ts';

export interface Operation {
  method: string;
  path: string;
  tag?: string;
}

/** Operations by operationId, with the tag of the first (Redoc's address uses it). */
export function operationsById(doc: Json): Map<string, Operation> {
  const out = new Map<string, Operation>();
  for (const [path, item] of Object.entries(doc.paths ?? {}))
    for (const [method, op] of Object.entries(item as Json) as [string, Json][])
      if (op?.operationId) out.set(op.operationId, { method: method.toUpperCase(), path, tag: op.tags?.[0] });
  return out;
}

/** Redoc's address of a tag or an operation (`#/<tag>/<operationid>`). */
export const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-');

export interface WorkflowFile {
  file: string;
  arazzo: Json;
}

/** The Arazzo documents of a folder (`*.arazzo.yaml`), by file name. */
export function readWorkflows(dir: string): WorkflowFile[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.arazzo.yaml'))
    .sort()
    .map((file) => ({ file, arazzo: parse(readFileSync(join(dir, file), 'utf8')) }));
}

const oneLine = (text: string) => text.replaceAll('\n', ' ').trim();

/** What a step calls, as Markdown: a link to the operation, a test helper, or another workflow. */
function target(step: Json, api: Map<string, Operation>, helpers: Map<string, Operation>): string {
  if (step.workflowId) {
    const [, source, id] = /^\$sourceDescriptions\.([^.]+)\.(.+)$/.exec(step.workflowId) ?? [];
    return `workflow \`${id ?? step.workflowId}\`${source ? ` (${source})` : ''}`;
  }
  const [, source, id] = /^\$sourceDescriptions\.([^.]+)\.(.+)$/.exec(step.operationId ?? '') ?? [];
  const fromApi = api.get(id ?? step.operationId);
  if (source !== 'testHelpers' && fromApi) {
    const anchor = fromApi.tag ? `#/${slug(fromApi.tag)}/${(id ?? step.operationId).toLowerCase()}` : '';
    return anchor ? `[\`${fromApi.method} ${fromApi.path}\`](${anchor})` : `\`${fromApi.method} ${fromApi.path}\``;
  }
  const helper = helpers.get(id ?? '');
  return helper ? `test helper \`${helper.method} ${helper.path}\`` : `\`${step.operationId}\``;
}

/** The Markdown page of one workflow: what it shows, how to run it, and its steps. */
export function workflowPage(
  { file, arazzo }: WorkflowFile,
  workflow: Json,
  api: Map<string, Operation>,
  helpers: Map<string, Operation>,
): string {
  const steps = (workflow.steps ?? []).map((step: Json, i: number) => {
    const checks = (step.successCriteria ?? []).map((c: Json) => `\`${c.condition}\``).join(', ');
    const kept = Object.keys(step.outputs ?? {})
      .map((name) => `\`${name}\``)
      .join(', ');
    const details = [checks && `Checks ${checks}.`, kept && `Keeps ${kept}.`].filter(Boolean).join(' ');
    return `${i + 1}. **\`${step.stepId}\`** — ${target(step, api, helpers)}: ${oneLine(step.description ?? '')}${details ? `<br>${details}` : ''}`;
  });
  return [
    (arazzo.info.description ?? '').trim(),
    '',
    (workflow.description ?? '').trim(),
    '',
    `Arazzo 1.0 workflow \`${workflow.workflowId}\` of \`openapi/workflows/${file}\`. Run it against a server in test mode (\`MARKETPLACE_TEST_MODE=1 npm run sandbox\`):`,
    '',
    '```sh',
    `npx redocly respect openapi/workflows/${file} --workflow ${workflow.workflowId} \\`,
    '  --server marketplace=$BASE_URL,testHelpers=$BASE_URL',
    '```',
    '',
    '**Steps**',
    '',
    ...steps,
  ].join('\n');
}

/**
 * Adds a "Workflows" group to the navigation of `doc` (changed in place): one text-only tag per
 * workflow of `dir`. The document's own tags go into an "API reference" group, since Redoc hides
 * tags that no group lists once `x-tagGroups` exists.
 */
export function addWorkflowPages(doc: Json, dir: string, helpersDoc: Json): void {
  const api = operationsById(doc);
  const helpers = operationsById(helpersDoc);
  const pages: Json[] = [];
  for (const entry of readWorkflows(dir))
    for (const workflow of entry.arazzo.workflows ?? [])
      pages.push({
        name: `Workflow ${workflow.workflowId}`,
        'x-displayName': workflow.summary ?? workflow.workflowId,
        'x-traitTag': true,
        description: workflowPage(entry, workflow, api, helpers),
      });
  doc['x-tagGroups'] = [
    { name: 'API reference', tags: (doc.tags ?? []).map((t: Json) => t.name) },
    { name: 'Workflows (Arazzo)', tags: pages.map((p) => p.name) },
  ];
  doc.tags = [...(doc.tags ?? []), ...pages];
}
