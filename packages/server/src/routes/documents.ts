// The bundled document at /openapi.json (and /bundled/openapi.json) and the docs page at /docs: in the repository the page
// `npm run docs` builds into docs/site, in an installed server the page @marketplace/openapi ships.
// The tool files @marketplace/openapi ships (Postman and Bruno collections, llms.txt and its
// operation pages) under /tools/, where the docs page links them, and /llms.txt leads there.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import express from 'express';
import { NOT_FOUND } from '../domain/messages.ts';

// Only a server running from its sources (src/*.ts) is inside the repository.
const REPOSITORY_PAGE = import.meta.url.endsWith('.ts')
  ? resolve(import.meta.dirname, '../../../../docs/site/index.html')
  : undefined;

/** The docs page to serve, or undefined when none has been built. */
export function docsPage(): string | undefined {
  if (REPOSITORY_PAGE && existsSync(REPOSITORY_PAGE)) return REPOSITORY_PAGE;
  try {
    // Resolving fails when the file is missing: the package holds the page once it is packed.
    return createRequire(import.meta.url).resolve('@marketplace/openapi/docs.html');
  } catch {
    return undefined;
  }
}

/** The tool folder of @marketplace/openapi (in the repository, openapi/tools), or undefined. */
export function toolsFolder(): string | undefined {
  try {
    const dir = join(dirname(createRequire(import.meta.url).resolve('@marketplace/openapi/package.json')), 'tools');
    return existsSync(dir) ? dir : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The server URL the docs page is built with (scripts/docs.ts). The page cannot know where it will
 * be served from, so /docs writes the origin of the request in its place: the servers box and the
 * request URLs then show the server the reader is talking to. Opened as a file, it stays as is.
 */
export const SERVER_PLACEHOLDER = 'https://marketplace.example';

// A host name, IPv4 or bracketed IPv6 address with an optional port: anything else in the Host
// header (it is client input, written into HTML and a script) leaves the placeholder.
const SAFE_HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** The origin a request reached the server at, when its Host header is a plain host[:port]. */
export function requestOrigin(req: express.Request): string | undefined {
  const host = req.get('host') ?? '';
  return SAFE_HOST.test(host) ? `${req.protocol}://${host}` : undefined;
}

/**
 * Serves the document and, when it has been built, the docs page (`page`: tests build their own;
 * by default the page is looked up at each request, so a page built after start is served).
 */
export function documentsRouter(document: unknown, page?: string): express.RequestHandler {
  let cached: { file: string; mtimeMs: number; html: string } | undefined;
  // The built page, read again only when the file changed (a 3 MB read per request is waste).
  const html = (file: string) => {
    const { mtimeMs } = statSync(file);
    if (cached?.file !== file || cached.mtimeMs !== mtimeMs)
      cached = { file, mtimeMs, html: readFileSync(file, 'utf8') };
    return cached.html;
  };
  const router = express.Router();
  const sendDocument = (_req: express.Request, res: express.Response) => {
    res.json(document);
  };
  router.get('/openapi.json', sendDocument);
  // Also where the package holds it (bundled/ beside tools/): llms.txt and its pages link the
  // document relatively (`../bundled/openapi.json`), which resolves here from /tools/llms.txt as it
  // does in the installed package and in the repository.
  router.get('/bundled/openapi.json', sendDocument);
  const tools = toolsFolder();
  if (tools) {
    // Relative links of llms.txt resolve under /tools/ only when it is read from there.
    router.get('/llms.txt', (_req, res) => res.redirect(302, '/tools/llms.txt'));
    router.use(
      '/tools',
      express.static(tools, {
        index: false,
        setHeaders: (res, file) => {
          if (file.endsWith('.bru')) res.setHeader('Content-Type', 'text/plain; charset=utf-8');
        },
      }),
    );
  }
  router.get('/docs', (req, res) => {
    const file = page ?? docsPage();
    if (!file || !existsSync(file)) {
      res.status(404).json({ err: true, success: false, content: NOT_FOUND });
      return;
    }
    const origin = requestOrigin(req);
    const text = html(file);
    res.type('html').send(origin ? text.replaceAll(SERVER_PLACEHOLDER, origin) : text);
  });
  // The API's own requests pass by without entering the router (its routes are tried in turn,
  // each a regular expression: about 2 percent of a validated GET's time).
  // Matched as Express matches them: any case, with or without a trailing slash.
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    // The first letter tells most requests apart before a string is built for them (`| 0x20`: its lower case).
    if (!DOCUMENT_INITIALS.has(req.path.charCodeAt(1) | 0x20)) return next();
    const path = req.path.toLowerCase().replace(/\/$/, '');
    if (DOCUMENT_PATHS.has(path) || (tools && (path === '/tools' || path.startsWith('/tools/'))))
      return router(req, res, next);
    next();
  };
}

/** The paths the documents router answers (besides /tools/ when the package ships it). */
const DOCUMENT_PATHS = new Set(['/openapi.json', '/bundled/openapi.json', '/llms.txt', '/docs']);
/** The lower-case first letters of those paths and of /tools/. */
const DOCUMENT_INITIALS = new Set([...DOCUMENT_PATHS, '/tools'].map((path) => path.charCodeAt(1)));
