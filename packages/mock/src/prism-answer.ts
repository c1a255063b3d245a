// Prism's own answers (`application/problem+json`) in the API's conventions. The front checks
// requests before Prism sees them, so these are the rare cases where Prism still disagrees: its 401
// becomes the API's 403 `forbidden`, its 422 the operation's documented 300 (through the same
// validation rules as the server), its 404 the API's 404, anything else a 500.
import {
  type ErrorAnswer,
  FORBIDDEN,
  INTERNAL_ERROR,
  NOT_FOUND,
  type OperationInfo,
  requestErrorAnswer,
  type ValidationIssue,
} from '@marketplace/contract';

interface PrismProblem {
  title?: string;
  detail?: string;
  validation?: { location?: string[]; code?: string; message?: string }[];
}

const LOCATIONS: Record<string, string> = { body: 'body', query: 'query', path: 'params', header: 'headers' };

/** One of Prism's validation items as a validator issue (`/body/amount`, `required.openapi.validation`). */
export function prismIssue(item: NonNullable<PrismProblem['validation']>[number]): ValidationIssue {
  const [where = 'body', ...rest] = item.location ?? [];
  // A missing property is reported at its parent: Prism names it only in the message.
  const missing = item.code === 'required' ? /required property '([^']+)'/.exec(item.message ?? '')?.[1] : undefined;
  const segments = [LOCATIONS[where] ?? where, ...rest, ...(missing ? [missing] : [])];
  return {
    path: `/${segments.join('/')}`,
    errorCode: `${item.code ?? 'type'}.openapi.validation`,
    message: item.message,
  };
}

/** The API's answer for one of Prism's problem answers, and whether it hides a fault worth logging. */
export function rewritePrismProblem(
  status: number,
  problem: PrismProblem,
  op: OperationInfo | undefined,
): ErrorAnswer & { unexpected: boolean } {
  if (status === 401 || status === 403) return { status: 403, envelope: 'A', content: FORBIDDEN, unexpected: false };
  if ((status === 400 || status === 422) && problem.validation?.length) {
    const answer = requestErrorAnswer({ status: 400, errors: problem.validation.map(prismIssue) }, op);
    if (answer) return { ...answer, unexpected: false };
  }
  if (status === 404 || status === 405) return { status: 404, envelope: 'A', content: NOT_FOUND, unexpected: false };
  return { status: 500, envelope: 'A', content: INTERNAL_ERROR, unexpected: true };
}
