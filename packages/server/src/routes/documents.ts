// The bundled document at /openapi.json and the docs page at /docs (built by `npm run docs`).
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import express from 'express';
import { NOT_FOUND } from '../domain/messages.ts';

export const DOCS_PAGE = resolve(import.meta.dirname, '../../../../docs/site/index.html');

/** Serves the document and, when it has been built, the docs page. */
export function documentsRouter(document: unknown): express.Router {
  const router = express.Router();
  router.get('/openapi.json', (_req, res) => {
    res.json(document);
  });
  router.get('/docs', (_req, res) => {
    if (existsSync(DOCS_PAGE)) res.sendFile(DOCS_PAGE);
    else res.status(404).json({ err: true, success: false, content: NOT_FOUND });
  });
  return router;
}
