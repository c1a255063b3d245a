import { describe, expect, it } from 'vitest';
import { codeOr, hasCode } from './error-code.ts';

describe('error codes', () => {
  it('reads the code of an Error that has one, and falls back otherwise', () => {
    const full = Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    expect(hasCode(full)).toBe(true);
    expect(codeOr(full, String)).toBe('ENOSPC');
    expect(codeOr(new Error('EIO'), String)).toBe('Error: EIO');
    // Not an Error, or a code that is no string: no code to name.
    expect(hasCode({ code: '23505' })).toBe(false);
    expect(hasCode(Object.assign(new Error('x'), { code: 23505 }))).toBe(false);
    expect(hasCode(undefined)).toBe(false);
    expect(codeOr(undefined, (e) => `(${String(e)})`)).toBe('(undefined)');
  });
});
