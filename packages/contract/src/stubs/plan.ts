// What `init` and `update` write, decided from the manifest of what was generated before
// (`.marketplace-stubs.json`: each generated file's hash, and the operations in each handler file
// with the revision they were stamped with) and the files as they are now. A file whose hash is
// still the generated one is the generator's to rewrite; any other is the team's: never written,
// its handlers of changed or removed operations reported instead. Pure: the caller reads and writes.
import { createHash } from 'node:crypto';
import { type StubOperation, tagFileName } from './operations.ts';
import { renderHandlerFile, renderHandlerIndex, renderMessages, renderRevisions } from './render.ts';

export const MANIFEST = '.marketplace-stubs.json';
export const HANDLERS_DIR = 'src/handlers';
/** Written on every run: nobody edits them (their header says so). */
export const GENERATED_FILES = {
  revisions: 'src/generated/revisions.ts',
  messages: 'src/generated/messages.ts',
  handlers: 'src/generated/handlers.ts',
};

export interface ManifestEntry {
  hash: string;
  /** A handler file's tag and its operations, by operationId, with the revision each stub got. */
  tag?: string;
  operations?: Record<string, string>;
}

export interface Manifest {
  generator: string;
  document: string;
  files: Record<string, ManifestEntry>;
}

export interface Located {
  operationId: string;
  file: string;
}

export interface Plan {
  /** What to write (null: delete a generated file nobody edited, whose operations are all gone). */
  writes: Map<string, string | null>;
  manifest: Manifest;
  /** Operations that got a stub. */
  added: Located[];
  /** Handlers in edited files whose operation changed since they were generated. */
  changed: Located[];
  /** Handlers in edited files whose operation is no longer in the document. */
  removed: Located[];
  /** Edited files left as they are. */
  kept: string[];
}

export interface PlanInput {
  ops: StubOperation[];
  /** The document's version and the generator's (package) version, recorded in the manifest. */
  version: string;
  generator: string;
  /** The generator's fixed files (app, store, README, CI...), by path. */
  templates: Map<string, string>;
  /** The manifest of the last run (none: a first generation). */
  previous?: Manifest;
  /** The hash of a file as it is now (undefined: it does not exist). */
  hashOf: (path: string) => string | undefined;
}

export const hashText = (text: string): string => createHash('sha256').update(text).digest('hex');

export function planStubs(input: PlanInput): Plan {
  const { ops, templates, hashOf } = input;
  const previous = input.previous?.files ?? {};
  const current = new Map(ops.map((op) => [op.operationId, op]));
  const writes = new Map<string, string | null>();
  const files: Record<string, ManifestEntry> = {};
  const manifest: Manifest = { generator: input.generator, document: input.version, files };
  const plan: Plan = { writes, manifest, added: [], changed: [], removed: [], kept: [] };
  const untouched = (path: string) => previous[path] !== undefined && hashOf(path) === previous[path].hash;
  const put = (path: string, text: string, entry: Omit<ManifestEntry, 'hash'> = {}) => {
    const hash = hashText(text);
    if (hashOf(path) !== hash) writes.set(path, text);
    files[path] = { hash, ...entry };
  };

  for (const [path, text] of templates) {
    if (untouched(path) || (!previous[path] && hashOf(path) === undefined)) put(path, text);
    else keep(path);
  }
  // A file of an earlier template that this one no longer ships (src/rate-limit.ts, now the
  // contract's OperationLimits): gone when nobody edited it, the team's otherwise.
  for (const [path, entry] of Object.entries(previous)) {
    if (entry.operations || templates.has(path)) continue;
    if (untouched(path)) writes.set(path, null);
    else keep(path);
  }

  // Handler files: the untouched ones are regenerated with what is left of their operations.
  const stubbed = new Map<string, { tag: string; ids: string[] }>();
  const placed = new Set<string>();
  for (const [path, entry] of Object.entries(previous)) {
    if (!entry.operations || !entry.tag) continue;
    if (untouched(path)) {
      const ids = Object.keys(entry.operations).filter((id) => current.get(id)?.tag === entry.tag);
      for (const id of ids) placed.add(id);
      stubbed.set(path, { tag: entry.tag, ids });
      continue;
    }
    keep(path);
    for (const [operationId, revision] of Object.entries(entry.operations)) {
      const op = current.get(operationId);
      if (!op) plan.removed.push({ operationId, file: path });
      else {
        placed.add(operationId);
        if (op.revision !== revision) plan.changed.push({ operationId, file: path });
      }
    }
  }
  // New operations go to their tag's file, or the next free one when the team edited it.
  for (const op of ops) {
    if (placed.has(op.operationId)) continue;
    const file = targetFile(op.tag);
    const entry = stubbed.get(file) ?? { tag: op.tag, ids: [] };
    entry.ids.push(op.operationId);
    stubbed.set(file, entry);
    plan.added.push({ operationId: op.operationId, file });
  }
  for (const [path, { tag, ids }] of stubbed) {
    const fileOps = ops.filter((op) => ids.includes(op.operationId));
    if (fileOps.length === 0) {
      if (hashOf(path) !== undefined) writes.set(path, null);
      continue;
    }
    const operations = Object.fromEntries(fileOps.map((op) => [op.operationId, op.revision]));
    put(path, renderHandlerFile(tag, fileOps), { tag, operations });
  }

  const handlerFiles = Object.keys(files)
    .filter((path) => files[path]?.operations && (writes.get(path) !== undefined || hashOf(path) !== undefined))
    .map((path) => path.slice(HANDLERS_DIR.length + 1))
    .sort();
  writes.set(GENERATED_FILES.revisions, renderRevisions(ops, input.version));
  writes.set(GENERATED_FILES.messages, renderMessages(ops));
  writes.set(GENERATED_FILES.handlers, renderHandlerIndex(handlerFiles));
  return plan;

  function keep(path: string): void {
    if (previous[path]) files[path] = previous[path];
    if (hashOf(path) !== undefined) plan.kept.push(path);
  }

  /** The first file of `tag` (`items.ts`, `items-2.ts`, ...) that is the generator's to write. */
  function targetFile(tag: string): string {
    for (let n = 1; ; n += 1) {
      const path = `${HANDLERS_DIR}/${tagFileName(tag)}${n === 1 ? '' : `-${n}`}.ts`;
      if (stubbed.has(path)) return path;
      if (!previous[path] && hashOf(path) === undefined) return path;
    }
  }
}
