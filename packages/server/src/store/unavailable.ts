// A store that cannot be reached for now (PostgreSQL restarting, its connections dropped: ADR 19
// "PostgreSQL going away") is not a failure of the server: the request gets HTTP 503 with
// Retry-After and may be sent again, and the instance serves again by itself once it is back.
import { StoreUnavailable } from './group-commit.ts';
import { isUnreachable } from './postgres/connection.ts';

/** Seconds a client is asked to wait (Retry-After) before sending a request the store could not serve. */
export const UNAVAILABLE_RETRY_SECONDS = 5;

/** Whether `error` means the store cannot be reached now: a write it did not keep, or a read or catch-up it could not make. */
export const isUnavailable = (error: unknown): boolean => error instanceof StoreUnavailable || isUnreachable(error);
