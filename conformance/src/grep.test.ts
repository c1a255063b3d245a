// --grep on the names as the reports print them (titles joined with spaces), while vitest filters
// on the titles joined with ` > `: both spellings of a name match, a name copied from a report
// matches as written, and a regular expression still works.
import { describe, expect, it } from 'vitest';
import { grepPattern } from './grep.ts';

const printed =
  'POST /user/login Given no apiKey, then 300 Missing required parameter: apiKey [R-MSG-LOGIN, R-AUTH-LOGIN]';
/** The name vitest matches its filter against: describe and test titles joined with ` > `. */
const vitestName =
  'POST /user/login > Given no apiKey, then 300 Missing required parameter: apiKey [R-MSG-LOGIN, R-AUTH-LOGIN]';

describe('--grep', () => {
  it.each([
    ['a name copied from a report, brackets and all', printed, true],
    ['words across the describe and the test title', 'login Given no apiKey', true],
    ['a rule ID', 'R-MSG-LOGIN', true],
    ['a regular expression', '^POST /user/log(in|out) Given', true],
    ['a character class with a space in it', 'no[ ]apiKey', true],
    ['an escaped character', 'apiKey\\.?', true],
    ['text the name does not have', 'Given an apiKey', false],
    ['the old ` > ` spelling', 'POST /user/login > Given', true],
  ])('%s', (_, grep, matches) => {
    expect(grepPattern(grep).test(vitestName)).toBe(matches);
  });

  it('takes text that is no regular expression as written', () => {
    expect(grepPattern('parameter: apiKey [R-MSG-LOGIN,').test(vitestName)).toBe(true);
    expect(grepPattern('(open').test('a ticket (open) > closed')).toBe(true);
  });
});
