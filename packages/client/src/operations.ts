// Types of operations by path and method, from the generated types and operation index: what an
// operation answers on success, what its business errors look like, and which messages it documents.
import { type DocumentedMessage as DocumentedMessageOf, operationIndex, type paths } from '@marketplace/types';

export type Method = 'get' | 'post';

/** Paths that have an operation for `M`. */
export type PathsWith<M extends Method> = {
  [P in keyof paths]: paths[P] extends { [K in M]: { responses: unknown } } ? P : never;
}[keyof paths];

/** The operation object of the generated types. */
export type Operation<P extends keyof paths, M extends Method> = paths[P] extends { [K in M]: infer O } ? O : never;

export type { BusinessErrorBody, Content, GlobalMessage, SuccessBody } from '@marketplace/types';

type Index = typeof operationIndex;

/** The operationId of a path and method. */
export type OperationId<P extends keyof paths, M extends Method> = P extends keyof Index
  ? M extends keyof Index[P]
    ? Index[P][M] extends { operationId: infer I }
      ? I
      : never
    : never
  : never;

/**
 * The business error messages the document lists for an operation (`x-error-messages`), as
 * answered: the reference server's handlers are held to the same union, by operationId.
 */
export type DocumentedMessage<P extends keyof paths, M extends Method> = DocumentedMessageOf<OperationId<P, M>>;

/** What the generated index says of one operation, for a path and method known only at run time. */
export function indexEntry(method: string, path: string): { operationId: string; permission: string } | undefined {
  const byPath = operationIndex as Record<
    string,
    Record<string, { operationId: string; permission: string }> | undefined
  >;
  return byPath[path]?.[method.toLowerCase()];
}
