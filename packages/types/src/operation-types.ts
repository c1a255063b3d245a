// What one operation takes and answers, read from the generated `operations` type: shared by the
// client (what a call returns) and the reference server (what a handler reads and must answer), so
// both sides of the wire are typed from the same document. Type-only: nothing here exists at run time.
import type { globalErrorMessages, operationIndex } from './operation-index.ts';
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

// Each fact twice: of an operation object (`O`, either document's: the test helpers' too) and of
// the public document's operation, by operationId.
type Parameters<O> = O extends { parameters: infer P } ? P : never;

/** The request body of an operation object (its JSON and form media types share one schema), or `{}`. */
export type RequestBody<O> = Declared<JsonOf<Exclude<O extends { requestBody?: infer B } ? B : never, undefined>>>;
/** The request body of an operation (its JSON and form media types share one schema), or `{}`. */
export type RequestBodyOf<Id extends OperationId> = RequestBody<operations[Id]>;

/** The query parameters of an operation object, typed by their schemas (absent ones are optional). */
export type Query<O> = Declared<Parameters<O> extends { query?: infer Q } ? Q : never>;
/** The query parameters of an operation, typed by their schemas (absent ones are optional). */
export type QueryOf<Id extends OperationId> = Query<operations[Id]>;

/** The path parameters of an operation object, typed by their schemas. */
export type PathParams<O> = Declared<Parameters<O> extends { path?: infer P } ? P : never>;
/** The path parameters of an operation, typed by their schemas. */
export type PathParamsOf<Id extends OperationId> = PathParams<operations[Id]>;

/** What an operation's success carries (envelope A `content`, B `data`), by operationId. */
export type ContentOf<Id extends OperationId> = Content<operations[Id]>;

type SuccessMedia<O> = O extends { responses: { 200: { content: infer C } } } ? C : never;

/** What an operation object's JSON success carries (envelope A `content`, B `data`). */
export type JsonContent<O> = Unwrapped<SuccessMedia<O> extends { 'application/json': infer J } ? J : never>;
/** What an operation's JSON success carries (envelope A `content`, B `data`), by operationId. */
export type JsonContentOf<Id extends OperationId> = JsonContent<operations[Id]>;

/** The media types other than JSON an operation's success may come in (`text/csv`), or never. */
export type RawMediaOf<Id extends OperationId> = Exclude<keyof SuccessMedia<operations[Id]>, 'application/json'>;

/** A success whose body is not JSON (the CSV price list), in one of the media types the success documents. */
export interface RawReply<Media extends string = string> {
  ok: true;
  raw: { contentType: Media; body: string };
}

/** The raw successes operation `Id` may answer: never when its success is JSON only. */
export type RawReplyOf<Id extends OperationId> = [RawMediaOf<Id>] extends [never]
  ? never
  : RawReply<RawMediaOf<Id> & string>;

/** Every operation entry of a generated index (by path and method), whatever its path and method. */
type EntryOf<Index> = { [P in keyof Index]: Index[P][keyof Index[P]] }[keyof Index];

/** The messages a generated index lists for operation `Id`, as answered. */
export type IndexedMessage<Index, Id extends string> = Answered<
  Extract<EntryOf<Index>, { operationId: Id }> extends { messages: readonly (infer S extends string)[] } ? S : never
>;

/**
 * A message as it is answered: the document's `<name>` placeholders (`<max>`, `<asset_id>`) stand
 * for any text, so `Price limit exceeded (maximum <max> cents)` admits `...(maximum 5000 cents)`.
 */
export type Answered<S extends string> = S extends `${infer Head}<${string}>${infer Tail}`
  ? `${Head}${string}${Answered<Tail>}`
  : S;

/** The business error messages the document lists for operation `Id` (`x-error-messages`), as answered. */
export type DocumentedMessage<Id extends OperationId> = IndexedMessage<typeof operationIndex, Id>;

/** Messages any operation may answer (`x-global-error-messages`); `<field>` stands for a field name. */
export type GlobalMessage =
  | Exclude<(typeof globalErrorMessages)[number], `${string}<field>${string}`>
  | `Missing required parameter: ${string}`
  | `Invalid ${string} parameter`;

/** What a business error (HTTP 300) of operation `Id` may carry: a documented message, or a global one. */
export type ErrorMessageOf<Id extends OperationId> = DocumentedMessage<Id> | GlobalMessage;

/**
 * The object content a business error of operation `Id` carries where its 300 answer documents one
 * (`{type, message}` of a deposit trade's status), or never: the bare envelope's open object
 * (`{[key]: unknown}`) documents nothing.
 */
export type ErrorObjectOf<Id extends OperationId> = ErrorObject<operations[Id]>;
/** The object content a business error of an operation object documents, or never (see ErrorObjectOf). */
export type ErrorObject<O> =
  BusinessErrorBody<O> extends { content?: infer C } ? Documented<Exclude<C, string | undefined>> : never;
type Documented<C> = C extends object ? (Record<never, never> extends C ? never : C) : never;

/** What a failure of operation `Id` may answer: a documented or global message, or its documented object. */
export type ErrorOf<Id extends OperationId> = ErrorMessageOf<Id> | ErrorObjectOf<Id>;
