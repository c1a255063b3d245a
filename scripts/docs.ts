// `npm run docs`: a self-contained HTML page of the document (Redocly build-docs --inlineBundle),
// written to docs/site/index.html (not committed: it is built from the bundle by `npm start` and
// `npm run docs`). Redoc shows descriptions and code samples but not our `x-` facts, so each
// operation's description gets its permission level, rate limit, error messages (each with the
// `Prefer` header that makes the mock answer it), gaps and extension mark, and `x-codeSamples`:
// curl, the typed client (TypeScript) and Python. The servers box shows a placeholder that the
// reference server replaces with its own origin when it serves the page at /docs. The Arazzo
// workflows of openapi/workflows/ get a page each (docs-workflows.ts).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { bodyLimitOf } from '../packages/contract/src/body-limit.ts';
import type { Json } from '../packages/contract/src/document.ts';
import { ANONYMOUS_BODY_LIMIT } from '../packages/server/src/http/app.ts';
import { SERVER_PLACEHOLDER } from '../packages/server/src/routes/documents.ts';
import { clientSample, curlSample, pythonSample } from './code-samples.ts';
import { errorExamples, exampleFor, type MockExample, preferHeader } from './docs-examples.ts';
import { addWorkflowPages } from './docs-workflows.ts';
import { TOOLS_DIR } from './generated-files.ts';

const root = resolve(import.meta.dirname, '..');

const cell = (text: string) => text.replaceAll('|', '\\|');
const bytes = (n: number) => `${n.toLocaleString('en-US')} bytes`;

/** The error table: each documented message, when it happens, and the mock's header for it. */
function errorLines(doc: Json, op: Json): string[] {
  const examples = errorExamples(doc, op);
  const used = new Set<MockExample>();
  const lines: string[] = [];
  const messages: Json[] = op['x-error-messages'] ?? [];
  if (messages.length) {
    lines.push('', '| HTTP | Message | When | Mock example |', '|---|---|---|---|');
    for (const m of messages) {
      const status = String(m.status ?? 300);
      const example = exampleFor(examples, status, m.message);
      if (example) used.add(example);
      const mock = example ? `\`${preferHeader(example)}\`` : '—';
      lines.push(`| ${status} | \`${cell(m.message)}\` | ${cell(m.condition)} | ${mock} |`);
    }
  }
  const others = examples.filter((e) => !used.has(e));
  if (others.length)
    lines.push(
      '',
      '**Other documented responses on the mock** (`npm run mock`):',
      ...others.map((e) => `- \`${preferHeader(e)}\`${e.message ? ` — \`${cell(e.message)}\`` : ''}`),
    );
  return lines;
}

// The tool files (scripts/tools.ts) sit beside the page: in the package (docs.html and tools/), in
// docs/site (buildDocs copies them) and on the server (/docs and /tools/).
const TOOLS_SECTION = [
  '## In your tools',
  '',
  '- **Postman**: [the collection](tools/postman/item-marketplace.postman_collection.json) (format v2.1) with environments for [the mock](tools/postman/mock.postman_environment.json) and [the sandbox](tools/postman/sandbox.postman_environment.json). Run *Log in with an API key* first: its test keeps the JWT in `{{jwt}}`.',
  '- **Bruno**: the collection folder `tools/bruno/` of `@marketplace/openapi` ([bruno.json](tools/bruno/bruno.json)), with the same requests and environments.',
  '- **Coding assistants**: [llms.txt](tools/llms.txt) and one Markdown page per operation (permission, parameters, answers, messages, samples).',
].join('\n');

/** Adds the facts Redoc would not show to every operation's description, and the code samples. */
export function decorate(doc: Json): Json {
  const out = structuredClone(doc);
  out.servers = [
    {
      url: SERVER_PLACEHOLDER,
      description:
        'The server that serves this page at /docs (opened as a file, a placeholder: use your server, `$BASE_URL` in the samples).',
    },
  ];
  out.info.description = `${out.info.description ?? ''}\n\n${TOOLS_SECTION}`;
  for (const [path, item] of Object.entries(out.paths as Json)) {
    for (const [method, op] of Object.entries(item as Json) as [string, Json][]) {
      const lines: string[] = [];
      if (op['x-extension'])
        lines.push('> **Extension** — designed by this project; not part of the source description.');
      lines.push(`**Permission:** ${op['x-permission']}`);
      // One rule, or a list of them (POST /user/login: per IP and per API key).
      for (const limit of [op['x-rate-limit'] ?? []].flat())
        lines.push(
          `**Rate limit:** ${limit.limit} per ${limit.window} s per ${limit.scope}${limit.counts ? ` (${limit.counts})` : ''}`,
        );
      const bodyLimit = bodyLimitOf(doc, op);
      if (bodyLimit !== undefined && Number.isFinite(bodyLimit))
        lines.push(
          `**Body limit:** ${bytes(bodyLimit)} (${bytes(Math.min(bodyLimit, ANONYMOUS_BODY_LIMIT))} without a JWT; see Request bodies)`,
        );
      lines.push(...errorLines(doc, op));
      const gaps: string[] = op['x-gaps'] ?? [];
      if (gaps.length) lines.push('', '**Not shown by the source description:**', ...gaps.map((g) => `- ${g}`));
      if (op['x-reference-variant']) lines.push('', `**Reference server implements:** ${op['x-reference-variant']}`);
      op.description = `${op.description ?? ''}\n\n${lines.join('\n')}`;
      if (op['x-extension']) op['x-badges'] = [{ name: 'Extension', color: '#b35900' }];
      // The `lang` values must be among the languages listed in redocly.yaml (openapi.codeSamples):
      // Redoc CE shows only the x-codeSamples whose language is listed there.
      op['x-codeSamples'] = [
        { lang: 'curl', label: 'curl', source: curlSample(doc, method, path, op) },
        { lang: 'TypeScript', label: 'TypeScript', source: clientSample(doc, method, path, op) },
        { lang: 'Python', label: 'Python', source: pythonSample(doc, method, path, op) },
      ];
    }
  }
  return out;
}

// Redoc's "API docs by Redocly" attribution loads its logo from cdn.redoc.ly. The page must work
// with no network (it is opened offline by docs.test.ts), so the logo is inlined as a small SVG
// that keeps the attribution; everything else of the page is already inline.
const LOGO = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="96" height="20"><text x="0" y="15" font-family="sans-serif" font-size="14" fill="#e53935">Redocly</text></svg>',
)}`;

/** The page with its only remote resources (the attribution logos) made inline. */
export function offline(html: string): string {
  return html.replace(/https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(-full)?\.svg/g, LOGO);
}

/** Builds the page from the bundle into `output` (Redocly build-docs, everything inlined). */
export function buildDocs(output = join(root, 'docs/site/index.html')): string {
  const doc = JSON.parse(readFileSync(join(root, 'openapi/bundled/openapi.json'), 'utf8'));
  const scratch = mkdtempSync(join(tmpdir(), 'docs-'));
  const input = join(scratch, 'openapi.json');
  try {
    const page = decorate(doc);
    const helpers = JSON.parse(readFileSync(join(root, 'openapi/bundled/test-helpers.json'), 'utf8'));
    addWorkflowPages(page, join(root, 'openapi/workflows'), helpers);
    writeFileSync(input, JSON.stringify(page));
    mkdirSync(dirname(output), { recursive: true });
    execFileSync(
      join(root, 'node_modules/.bin/redocly'),
      [
        'build-docs',
        input,
        '--config',
        join(root, 'redocly.yaml'),
        '--inlineBundle',
        '-o',
        output,
        '--title',
        'Item Marketplace API',
      ],
      {
        stdio: ['ignore', 'ignore', 'inherit'],
        env: { ...process.env, REDOCLY_TELEMETRY: 'off' },
      },
    );
    writeFileSync(output, offline(readFileSync(output, 'utf8')));
    // The tool files the page links, beside it (in the package, docs.html is already beside them).
    const tools = join(root, TOOLS_DIR);
    if (resolve(dirname(output), 'tools') !== tools) cpSync(tools, join(dirname(output), 'tools'), { recursive: true });
    return output;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.main) console.log(`wrote ${buildDocs()}`);
