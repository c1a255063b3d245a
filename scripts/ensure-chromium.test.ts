import { describe, expect, it } from 'vitest';
import { findChromium } from './ensure-chromium.ts';

describe('findChromium', () => {
  it('takes CHROMIUM_PATH when it exists, and finds nothing when it does not', () => {
    expect(findChromium({ CHROMIUM_PATH: process.execPath })).toBe(process.execPath);
    expect(findChromium({ CHROMIUM_PATH: '/nonexistent/chromium' })).toBeUndefined();
  });
});
