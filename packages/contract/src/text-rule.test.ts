import { describe, expect, it } from 'vitest';
import { isUnstorable } from './text-rule.ts';

describe('isUnstorable (Conventions, "Text")', () => {
  it.each([
    ['plain text', 'Mann Co. Supply Crate Key', false],
    ['an empty string', '', false],
    ['a pair of surrogates (an emoji)', 'key 😀', false],
    ['characters outside ASCII', 'Schlüssel — キー', false],
    ['other control characters', 'tab\there\u0001', false],
    ['NUL', 'a\u0000b', true],
    ['NUL alone', '\u0000', true],
    ['a high surrogate alone', '\ud800', true],
    ['a high surrogate before a letter', 'x\ud83dy', true],
    ['a low surrogate alone', 'x\ude00', true],
    ['two high surrogates then a low one', '\ud83d\ud83d\ude00', true],
    ['a reversed pair', '\ude00\ud83d', true],
  ])('%s: %s', (_name, text, unstorable) => {
    expect(isUnstorable(text)).toBe(unstorable);
  });
});
