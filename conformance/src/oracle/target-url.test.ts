import { describe, expect, it } from 'vitest';
import { targetUrl } from './target-url.ts';

describe('targetUrl', () => {
  it.each([
    ['http://127.0.0.1:8080', '/user/login', 'http://127.0.0.1:8080/user/login'],
    ['http://127.0.0.1:8080/', '/user/login', 'http://127.0.0.1:8080/user/login'],
    ['http://h:1/sandboxes/ab12', '/item/listing/1?page=2', 'http://h:1/sandboxes/ab12/item/listing/1?page=2'],
    ['http://h:1/sandboxes/ab12/', 'test_helpers/clock', 'http://h:1/sandboxes/ab12/test_helpers/clock'],
  ])('joins %s and %s', (base, path, want) => {
    expect(targetUrl(base, path).toString()).toBe(want);
  });
});
