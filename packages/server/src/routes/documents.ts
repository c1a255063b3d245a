// The bundled document at /openapi.json and the docs page at /docs: in the repository the page
// `npm run docs` builds into docs/site, in an installed server the page @marketplace/openapi ships.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
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

/** Serves the document and, when it has been built, the docs page. */
export function documentsRouter(document: unknown): express.Router {
  const router = express.Router();
  router.get('/openapi.json', (_req, res) => {
    res.json(document);
  });
  router.get('/docs', (_req, res) => {
    const page = docsPage();
    if (page) res.sendFile(page);
    else res.status(404).json({ err: true, success: false, content: NOT_FOUND });
  });
  return router;
}
