// Turns a request-validation failure (express-openapi-validator's Ajv errors) into the message the
// document promises for it. The document lists, per operation, the message for a field's missing
// or invalid value (`x-error-messages` with `field`, `reason` and optionally `keyword`); a failure
// it does not name gets the documented fallback (`Missing required parameter: <field>` or
// `Invalid <field> parameter`), never Ajv's wording.
import type { ErrorMessage } from './operation-index.ts';

/**
 * The document's global message for a body that cannot be read as the operation's parameters: not
 * JSON or form data, too large, an unsupported type, or valid JSON that is not an object (`[]`).
 */
export const INVALID_BODY = 'Invalid request body';

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

/**
 * The issues that say what is wrong with a field. Ajv reports every branch of a `oneOf`: a value
 * that matched one branch's type also carries "must be <other type>" from the others, and a
 * closing `oneOf` error. Those are dropped while a more specific issue about the field remains.
 */
function relevant(issues: ValidationIssue[]): ValidationIssue[] {
  const kept = issues.filter((i) => !['oneOf', 'anyOf'].includes(describeIssue(i).keyword));
  return kept.filter((issue) => {
    const { field, keyword } = describeIssue(issue);
    if (keyword !== 'type') return true;
    const atField = issue.path.split('/').filter(Boolean).length <= 2;
    const others = kept.some(
      (o) =>
        o !== issue &&
        describeIssue(o).field === field &&
        (describeIssue(o).keyword !== 'type' || o.path.split('/').filter(Boolean).length > 2),
    );
    return !(atField && others);
  });
}

/** The documented message for the first issue, with the HTTP status and error type it is sent with. */
export function validationMessage(
  issues: ValidationIssue[],
  documented: ErrorMessage[],
): { message: string; status: number; type?: string } {
  const chosen = relevant(issues);
  const failures = (chosen.length ? chosen : issues).map(describeIssue);
  // Messages with a placeholder (`<asset_id>`) are filled in by business rules, not here.
  const usable = documented.filter((m) => !/<[a-z_]+>/i.test(m.message));
  for (const failure of failures) {
    const candidates = usable.filter((m) => m.field === failure.field && m.reason === failure.reason);
    const entry =
      candidates.find((m) => m.keyword === failure.keyword) ?? candidates.find((m) => !m.keyword) ?? candidates[0];
    if (entry)
      return { message: entry.message, status: entry.status ?? 300, ...(entry.type ? { type: entry.type } : {}) };
  }
  const first = failures[0];
  // No field to name: the body as a whole is not an object of parameters (a JSON array, a string).
  if (!first?.field) return { message: INVALID_BODY, status: 300 };
  return {
    message:
      first.reason === 'missing' ? `Missing required parameter: ${first.field}` : `Invalid ${first.field} parameter`,
    status: 300,
  };
}
