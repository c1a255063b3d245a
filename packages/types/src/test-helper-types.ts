// What one test-helper operation takes and answers, by operationId, read from the generated
// test-helpers types and index: the reference server registers its helpers by operationId as it
// does the API's handlers, so a helper reads only the fields its schema declares and answers only
// the messages its operation documents. Type-only: nothing here exists at run time.
import type { GlobalMessage, IndexedMessage, JsonContent, PathParams, Query, RequestBody } from './operation-types.ts';
import type { testHelperIndex } from './test-helper-index.ts';
import type { operations } from './test-helpers.ts';

/** Every operationId of the test-helpers document (the sandboxes' operations among them). */
export type TestHelperId = keyof operations;

/** The body of a helper request, validated and stripped to its declared fields by the helpers' gate. */
export type TestHelperBodyOf<Id extends TestHelperId> = RequestBody<operations[Id]>;
/** The query of a helper request, typed by its schemas. */
export type TestHelperQueryOf<Id extends TestHelperId> = Query<operations[Id]>;
/** The path parameters of a helper request, typed by their schemas. */
export type TestHelperParamsOf<Id extends TestHelperId> = PathParams<operations[Id]>;
/** What a helper's success carries (envelope A's `content`). */
export type TestHelperContentOf<Id extends TestHelperId> = JsonContent<operations[Id]>;

/** The messages a helper's operation documents (`x-error-messages`), as answered. */
export type TestHelperMessageOf<Id extends TestHelperId> = IndexedMessage<typeof testHelperIndex, Id>;

/** What a failure of helper `Id` may answer: a documented message or a global one. */
export type TestHelperErrorOf<Id extends TestHelperId> = TestHelperMessageOf<Id> | GlobalMessage;

/** The helpers of shared/test-helpers.md: the document's operations but the sandboxes' (our extension). */
export type HelperId = Extract<TestHelperId, `${string}TestHelpers${string}`>;

/** What helper `Id` reads: its request, validated by the helpers' gate and typed by its operation. */
export interface TestHelperRequest<Id extends TestHelperId> {
  /** The body (`{}` when the helper takes none), stripped to the fields its schema declares. */
  body: TestHelperBodyOf<Id>;
  query: TestHelperQueryOf<Id>;
  /** The path parameters, numbers where the schema says so. */
  params: TestHelperParamsOf<Id>;
}

/** What helper `Id` answers: its documented content, or a message its operation lists (HTTP 300). */
export type TestHelperReply<Id extends TestHelperId> =
  | { ok: true; value: TestHelperContentOf<Id> }
  | { ok: false; error: TestHelperErrorOf<Id> };

/** A helper for every helper of shared/test-helpers.md, by operationId (`Partial` for a host that writes some). */
export type TestHelpers = {
  [Id in HelperId]: (request: TestHelperRequest<Id>) => TestHelperReply<Id> | Promise<TestHelperReply<Id>>;
};
