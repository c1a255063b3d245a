// The test helpers' answers checked against their document (openapi/test-helpers.yaml, shipped as
// @marketplace/openapi/test-helpers.json), with the suite's own Ajv as the public answers are
// (contract.ts): a test set up by a helper that answered another shape would check nothing it
// means to, so such an answer fails the set-up of every test using it, saying what differed.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { RecordedExchange } from '../oracle/contract.ts';
import { findHelper, helperDocument } from '../oracle/document.ts';

export { HELPER_ANSWER } from './not-implemented.ts';

import { apiPath } from '../oracle/target-url.ts';

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
addFormats.default(ajv);
ajv.addSchema({ ...helperDocument, $id: 'helpers' }, 'helpers');

const validators = new Map<string, ReturnType<typeof ajv.compile>>();
const pointerEscape = (p: string) => p.replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * How a helper's answer differs from the documented answer of its status (empty when it conforms,
 * or when the request was no test helper, or the status is not one its document gives a body for).
 */
export function checkHelperAnswer(exchange: RecordedExchange, target?: string | URL): string[] {
  const helper = findHelper(exchange.method, apiPath(new URL(exchange.url), target));
  if (!helper) return [];
  const op = helperDocument.paths[helper.path][helper.method.toLowerCase()];
  const schema = op.responses[String(exchange.status)]?.content?.['application/json']?.schema;
  if (!schema) return [];
  const pointer = `/paths/${pointerEscape(helper.path)}/${helper.method.toLowerCase()}/responses/${exchange.status}/content/application~1json/schema`;
  let validate = validators.get(pointer);
  if (!validate) {
    validate = ajv.compile({ $ref: `helpers#${pointer}` });
    validators.set(pointer, validate);
  }
  if (validate(exchange.body)) return [];
  return (validate.errors ?? [])
    .filter((e) => !['allOf', 'anyOf', 'oneOf', 'if'].includes(e.keyword))
    .slice(0, 4)
    .map((e) => `body${e.instancePath} ${e.message}`);
}
