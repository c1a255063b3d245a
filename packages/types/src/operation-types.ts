// What one operation takes and answers, read from the generated `operations` type: shared by the
// client (what a call returns) and the reference server (what a handler reads and must answer), so
// both sides of the wire are typed from the same document. Type-only: nothing here exists at run time.
import type { operations } from './openapi.ts';

/** Every operationId of the public document. */
export type OperationId = keyof operations;

type JsonOf<R> = R extends { content: infer C } ? C[keyof C] : never;

/** The body of a 200 answer of an operation object (either envelope, or a raw document such as CSV). */
export type SuccessBody<O> = O extends { responses: { 200: infer R } } ? JsonOf<R> : never;

/**
 * What a success carries: envelope A's `content`, envelope B's `data`, else the body itself.
 * The envelopes are told apart by their required keys (`err` for A, `status` for B), as the
 * optional `content?` of A would match B too.
 */
export type Content<O> = Unwrapped<SuccessBody<O>>;
type Unwrapped<B> = B extends { err: boolean }
  ? B extends { content?: infer C }
    ? Exclude<C, undefined>
    : never
  : B extends { status: string }
    ? B extends { data?: infer D }
      ? D
      : undefined
    : B;

/** The body of a business error (HTTP 300) of an operation object. */
export type BusinessErrorBody<O> = O extends { responses: { 300: infer R } } ? JsonOf<R> : never;

/** `T` without `undefined`, or `Empty` when the document declares nothing (`never`). */
type Declared<T> = [Exclude<T, undefined>] extends [never] ? Empty : Exclude<T, undefined>;
/** Nothing to read: any property access fails to compile. */
type Empty = Record<never, never>;

/** The request body of an operation (its JSON and form media types share one schema), or `{}`. */
export type RequestBodyOf<Id extends OperationId> = Declared<JsonOf<Exclude<operations[Id]['requestBody'], undefined>>>;

/** The query parameters of an operation, typed by their schemas (absent ones are optional). */
export type QueryOf<Id extends OperationId> = Declared<operations[Id]['parameters']['query']>;

/** The path parameters of an operation, typed by their schemas. */
export type PathParamsOf<Id extends OperationId> = Declared<operations[Id]['parameters']['path']>;

/** What an operation's success carries (envelope A `content`, B `data`), by operationId. */
export type ContentOf<Id extends OperationId> = Content<operations[Id]>;

type SuccessMedia<Id extends OperationId> = operations[Id]['responses'] extends { 200: { content: infer C } } ? C : never;

/** What an operation's JSON success carries (envelope A `content`, B `data`), by operationId. */
export type JsonContentOf<Id extends OperationId> = Unwrapped<
  SuccessMedia<Id> extends { 'application/json': infer J } ? J : never
>;

/** The media types other than JSON an operation's success may come in (`text/csv`), or never. */
export type RawMediaOf<Id extends OperationId> = Exclude<keyof SuccessMedia<Id>, 'application/json'>;

/** A success whose body is not JSON (the CSV price list), in one of the media types the success documents. */
export interface RawReply<Media extends string = string> {
  ok: true;
  raw: { contentType: Media; body: string };
}

/** The raw successes operation `Id` may answer: never when its success is JSON only. */
export type RawReplyOf<Id extends OperationId> = [RawMediaOf<Id>] extends [never]
  ? never
  : RawReply<RawMediaOf<Id> & string>;
