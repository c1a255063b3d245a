// The bundled document at /openapi.json and the docs page at /docs (built by `npm run docs`).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import express from 'express';
import { NOT_FOUND } from '../domain/messages.ts';

export const DOCS_PAGE = resolve(import.meta.dirname, '../../../../docs/site/index.html');

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

/** Serves the document and, when it has been built, the docs page (`page`: tests build their own). */
export function documentsRouter(document: unknown, page = DOCS_PAGE): express.Router {
  let cached: { mtimeMs: number; html: string } | undefined;
  // The built page, read again only when the file changed (a 3 MB read per request is waste).
  const docsPage = () => {
    const { mtimeMs } = statSync(page);
    if (cached?.mtimeMs !== mtimeMs) cached = { mtimeMs, html: readFileSync(page, 'utf8') };
    return cached.html;
  };
  const router = express.Router();
  router.get('/openapi.json', (_req, res) => {
    res.json(document);
  });
  router.get('/docs', (req, res) => {
    if (!existsSync(page)) {
      res.status(404).json({ err: true, success: false, content: NOT_FOUND });
      return;
    }
    const origin = requestOrigin(req);
    const html = docsPage();
    res.type('html').send(origin ? html.replaceAll(SERVER_PLACEHOLDER, origin) : html);
  });
  return router;
}
