// --grep on the names the reports print. The reports join a test's describe titles and its own
// with spaces (`POST /user/login Given no apiKey, then 300 ...`); vitest matches its name filter on
// the titles joined with ` > `. A pattern is turned into one vitest reads the same way: each space
// outside a character class also matches ` > `. A name copied from a report (with its `[R-...]`,
// `{item}` and parentheses) matches as plain text too.

/** The pattern with every literal space (outside `[...]`, not escaped) matching ` > ` too. */
function spacesAcrossTitles(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i += 1) {
    const ch = pattern[i]!;
    if (ch === '\\') {
      out += ch + (pattern[i + 1] ?? '');
      i += 1;
    } else if (inClass) {
      out += ch;
      if (ch === ']') inClass = false;
    } else if (ch === '[') {
      out += ch;
      inClass = true;
      if (pattern[i + 1] === ']') {
        out += ']';
        i += 1;
      }
    } else out += ch === ' ' ? '(?: > | )' : ch;
  }
  return out;
}

const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The vitest name filter for a --grep as given: the regular expression, or the text as written. */
export function grepPattern(grep: string): RegExp {
  const text = spacesAcrossTitles(escaped(grep));
  try {
    return new RegExp(`${spacesAcrossTitles(grep)}|${text}`);
  } catch {
    return new RegExp(text); // not a regular expression: the text as written
  }
}

/** Whether a printed name matches a --grep, as the run applies it. */
export const grepMatches = (grep: string, printedName: string): boolean => grepPattern(grep).test(printedName);
