// Turns a request-validation failure (express-openapi-validator's Ajv errors) into the message the
// document promises for it. The document lists, per operation, the message for a field's missing
// or invalid value (`x-error-messages` with `field`, `reason` and optionally `keyword`); a failure
// it does not name gets the documented fallback (`Missing required parameter: <field>` or
// `Invalid <field> parameter`), never Ajv's wording.
import type { ErrorMessage } from './operation-index.ts';

export interface ValidationIssue {
  /** `/body/apiKey`, `/query/count`, `/params/item`. */
  path: string;
  /** `required.openapi.validation`, `type.openapi.validation`, ... */
  errorCode?: string;
  message?: string;
}

interface Failure {
  field: string;
  reason: 'missing' | 'invalid';
  keyword: string;
}

/** The field, reason and JSON Schema keyword of one validator issue. */
export function describeIssue(issue: ValidationIssue): Failure {
  const keyword = issue.errorCode?.split('.')[0] ?? 'type';
  // `/body/value/123` names a nested value of `value`: the message is about the top-level field.
  const segments = issue.path.split('/').filter(Boolean);
  const field =
    segments[0] && ['body', 'query', 'params', 'headers'].includes(segments[0])
      ? (segments[1] ?? '')
      : (segments[0] ?? '');
  return { field, reason: keyword === 'required' ? 'missing' : 'invalid', keyword };
}

/** The documented message for the first issue, with the HTTP status it is sent with. */
export function validationMessage(
  issues: ValidationIssue[],
  documented: ErrorMessage[],
): { message: string; status: number } {
  const failures = issues.map(describeIssue);
  for (const failure of failures) {
    const candidates = documented.filter((m) => m.field === failure.field && m.reason === failure.reason);
    const exact = candidates.find((m) => m.keyword === failure.keyword) ?? candidates.find((m) => !m.keyword);
    const chosen = exact ?? candidates[0];
    if (chosen) return { message: chosen.message, status: chosen.status ?? 300 };
  }
  const first = failures[0];
  if (!first?.field) return { message: 'Invalid parameters', status: 300 };
  return {
    message:
      first.reason === 'missing' ? `Missing required parameter: ${first.field}` : `Invalid ${first.field} parameter`,
    status: 300,
  };
}
