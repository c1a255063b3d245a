// @marketplace/contract: the document at run time, shared by the reference server, the mock
// (packages/mock) and the projects the stub generator writes: its facts, the rules a request passes
// before any handler runs, and the whole request flow that applies them, `createApi` (ADRs 0026,
// 0034); the gate it mounts is not offered to build another flow with.
export {
  type Answer,
  type ApiLimits,
  type ApiOptions,
  createApi,
  type Dispatch,
  type NotImplemented,
  notImplemented,
} from './api.ts';
export { BYTES_PER_CHARACTER, bodyLimitOf, SLACK_BYTES } from './body-limit.ts';
export { FORM_DEPTH, FORM_PARAMETERS } from './body-reader.ts';
export {
  CORS_EXPOSED_HEADERS,
  CORS_MAX_AGE,
  corsLayer,
  corsOriginAllowed,
  LOCAL_DEV_ORIGINS,
  parseCorsOrigins,
} from './cors.ts';
export { BUNDLED_DOCUMENT, type Json, readDocument, resolveRef } from './document.ts';
export { sendError, sendNotFound, sendOk } from './envelope.ts';
export {
  FixedWindowLimiter,
  MemoryWindows,
  type RateWindow,
  type RateWindows,
  type Verdict,
  windowIsOver,
} from './fixed-window.ts';
export { operationOf } from './gate.ts';
export { HELPER_BODY_LIMIT, type HelpersGateOptions, helpersGate, type MountHelpers } from './helpers-gate.ts';
export { FORBIDDEN, INTERNAL_ERROR, NOT_FOUND, PROTOCOL, rateLimited } from './messages.ts';
export {
  isOnPurpose,
  MAX_DELAY_MS,
  ON_PURPOSE_ARGS,
  type OnPurposeOptions,
  onPurpose,
  parseFailRate,
  parseLatency,
  parseSeed,
} from './on-purpose.ts';
export {
  type Envelope,
  type ErrorMessage,
  indexOperations,
  type OperationInfo,
  type Permission,
  type RateLimitRule,
} from './operation-index.ts';
export {
  type Counted,
  GENERAL_LIMIT,
  OperationLimits,
  type OperationLimitsOptions,
} from './operation-limits.ts';
export { type PermittedCaller, permits } from './permission.ts';
export {
  answerProtocolErrors,
  HEADERS_TIMEOUT_MS,
  MAX_HEADER_BYTES,
  MAX_HEADER_FIELDS,
  type ProtocolTimeouts,
  protocolServer,
  REQUEST_TIMEOUT_MS,
} from './protocol-errors.ts';
export { type RuleCounting, ruleCounting } from './rate-limit-counting.ts';
export { type RateLimitHeaders, sendRateLimited, setRateLimitHeaders } from './rate-limited.ts';
export {
  documentOperations,
  type ErrorAnswer,
  prepareBody,
  requestErrorAnswer,
} from './request-rules.ts';
export { RouteMatcher } from './route-matcher.ts';
export { settleUrlParseCheck } from './url-parse-check.ts';
export { INVALID_BODY, type ValidationIssue, validationMessage } from './validation-message.ts';
