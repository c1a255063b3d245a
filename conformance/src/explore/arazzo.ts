// A failure of `explore` as an Arazzo 1.0 workflow (the format of openapi/workflows): the set-up
// and the steps of the shrunk sequence, each by its operationId in the public document or the
// test-helpers document, with the answers seen as success criteria; the JWTs, item IDs and asset
// IDs of the run are taken from the outputs of the steps that created them, so the workflow runs
// on a target that numbers things differently.
import { findHelper, findOperation, type Json } from '../oracle/document.ts';
import type { ExplorerCall } from './client.ts';

/** The fields that carry an identifier the run created (swapped for the step output that holds it). */
const IDS = new Set(['itemid', 'itemId', 'ids', 'assetId', 'owner', 'platformId', 'apiKey', 'cartId']);

/** An Arazzo document replaying the exchanges of a failure (reads between steps left out). */
export function arazzoWorkflow(f: {
  kind: string;
  message: string;
  exchanges: ExplorerCall[];
  evidence: ExplorerCall[];
}): Json {
  // Values the run created, mapped to the runtime expression of the step output that holds them.
  const known = new Map<string, string>();
  const exchanges = f.exchanges.filter((x) => x.phase !== 'observe');
  const evidence = f.evidence.filter((x) => x.phase === 'observe');
  const steps = [...exchanges, ...evidence].map((x, i) => {
    const stepId = `s${i + 1}`;
    const url = new URL(x.path, 'http://target');
    const found = findOperation(x.method, url.pathname);
    const operationId = found
      ? `$sourceDescriptions.marketplace.${found.id}`
      : `$sourceDescriptions.testHelpers.${findHelper(x.method, url.pathname)?.id}`;
    const swap = (v: unknown): unknown => known.get(String(v)) ?? v;
    const swapFields = (body: unknown): unknown =>
      body && typeof body === 'object'
        ? Object.fromEntries(Object.entries(body).map(([k, v]) => [k, IDS.has(k) ? swap(v) : v]))
        : body;
    const parameters: Json[] = [];
    if (x.token)
      parameters.push({
        name: 'Authorization',
        in: 'header',
        value: known.has(x.token) ? `Bearer {${known.get(x.token)}}` : `Bearer ${x.token}`,
      });
    if (x.ip) parameters.push({ name: 'X-Forwarded-For', in: 'header', value: x.ip });
    for (const [name, value] of url.searchParams)
      parameters.push({ name, in: 'query', value: IDS.has(name) ? swap(value) : value });
    const params = found?.path.match(/\{[^}]+\}/g) ?? [];
    if (params.length) {
      const template = found!.path.split('/');
      url.pathname.split('/').forEach((segment, k) => {
        if (template[k]?.startsWith('{'))
          parameters.push({ name: template[k]!.slice(1, -1), in: 'path', value: swap(segment) });
      });
    }
    const outputs: Record<string, string> = {};
    const content = x.body?.content;
    if (x.status === 200 && content && typeof content === 'object') {
      if (typeof content.jwt === 'string') {
        outputs.jwt = '$response.body#/content/jwt';
        known.set(content.jwt, `$steps.${stepId}.outputs.jwt`);
      }
      for (const key of ['platformId', 'apiKey', 'assetId', 'id', 'cashoutId'] as const)
        if (
          (typeof content[key] === 'string' || typeof content[key] === 'number') &&
          !known.has(String(content[key]))
        ) {
          outputs[key] = `$response.body#/content/${key}`;
          known.set(String(content[key]), `$steps.${stepId}.outputs.${key}`);
        }
    }
    return {
      stepId,
      description:
        x.phase === 'observe'
          ? `The read that shows the failure: ${f.kind}. ${f.message.split('\n')[0]}`
          : x.phase === 'setup'
            ? `Set-up: ${x.method} ${url.pathname}`
            : `Step ${x.step}: ${x.method} ${url.pathname}`,
      operationId,
      ...(parameters.length ? { parameters } : {}),
      ...(x.method === 'POST'
        ? { requestBody: { contentType: 'application/json', payload: swapFields(x.json ?? {}) } }
        : {}),
      successCriteria: [{ condition: `$statusCode == ${x.status}` }],
      ...(Object.keys(outputs).length ? { outputs } : {}),
    };
  });
  return {
    arazzo: '1.0.1',
    info: {
      title: `explore: ${f.kind}`,
      version: '1.0.0',
      summary: f.message.split('\n')[0],
      description: `The shrunk sequence of marketplace-conformance explore that breaks "${f.kind}", as it was played: each step's success criterion is the answer the target gave.\n\n${f.message}`,
    },
    sourceDescriptions: [
      { name: 'marketplace', url: 'openapi.json', type: 'openapi' },
      { name: 'testHelpers', url: 'test-helpers.json', type: 'openapi' },
    ],
    workflows: [{ workflowId: 'exploreFailure', summary: f.kind, steps }],
  };
}
