// The typed client of the Item Marketplace API (packages/client/README.md).
export {
  createMarketplaceClient,
  type Init,
  type MarketplaceClient,
  type MarketplaceClientOptions,
  needsUser,
} from './client.ts';
export { type Outcome, operationIdOf, orThrow, settle } from './envelope.ts';
export { type ErrorKind, isMarketplaceError, MarketplaceError } from './errors.ts';
export type {
  BusinessErrorBody,
  Content,
  DocumentedMessage,
  GlobalMessage,
  Method,
  Operation,
  OperationId,
  PathsWith,
  SuccessBody,
} from './operations.ts';
export { DEFAULT_RETRY, type RetryPolicy, retryDelay } from './rate-limit.ts';
export { EXPIRY_MARGIN, Session } from './session.ts';
