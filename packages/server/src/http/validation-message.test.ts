import { describe, expect, it } from 'vitest';
import type { ErrorMessage } from './operation-index.ts';
import { describeIssue, validationMessage } from './validation-message.ts';

const documented: ErrorMessage[] = [
  { message: 'Missing required parameter: apiKey', condition: 'absent', field: 'apiKey', reason: 'missing' },
  {
    message: 'Short URL too short/long',
    condition: 'length',
    field: 'shortUrl',
    reason: 'invalid',
    keyword: 'minLength',
  },
  {
    message: 'Short URL too short/long',
    condition: 'length',
    field: 'shortUrl',
    reason: 'invalid',
    keyword: 'maxLength',
  },
  { message: 'Invalid characters', condition: 'pattern', field: 'shortUrl', reason: 'invalid', keyword: 'pattern' },
  { message: 'Price too high or invalid', condition: 'range', field: 'price', reason: 'invalid' },
];

describe('describeIssue', () => {
  it.each([
    [
      'a missing body field',
      { path: '/body/apiKey', errorCode: 'required.openapi.validation' },
      { field: 'apiKey', reason: 'missing', keyword: 'required' },
    ],
    [
      'a query type error',
      { path: '/query/count', errorCode: 'type.openapi.validation' },
      { field: 'count', reason: 'invalid', keyword: 'type' },
    ],
    [
      'a nested value',
      { path: '/body/value/123', errorCode: 'maximum.openapi.validation' },
      { field: 'value', reason: 'invalid', keyword: 'maximum' },
    ],
  ])('reads %s', (_, issue, want) => {
    expect(describeIssue(issue)).toEqual(want);
  });
});

describe('validationMessage', () => {
  it.each([
    [
      'the documented missing message',
      [{ path: '/body/apiKey', errorCode: 'required.openapi.validation' }],
      'Missing required parameter: apiKey',
    ],
    [
      'the message of the failing keyword',
      [{ path: '/body/shortUrl', errorCode: 'pattern.openapi.validation' }],
      'Invalid characters',
    ],
    [
      'the length message for maxLength',
      [{ path: '/body/shortUrl', errorCode: 'maxLength.openapi.validation' }],
      'Short URL too short/long',
    ],
    [
      'a keyword-free entry for any invalid value',
      [{ path: '/body/price', errorCode: 'minimum.openapi.validation' }],
      'Price too high or invalid',
    ],
    [
      'the missing fallback',
      [{ path: '/body/ids', errorCode: 'required.openapi.validation' }],
      'Missing required parameter: ids',
    ],
    ['the invalid fallback', [{ path: '/query/page', errorCode: 'type.openapi.validation' }], 'Invalid page parameter'],
    [
      'the first documented issue among several',
      [
        { path: '/query/x', errorCode: 'type.openapi.validation' },
        { path: '/body/apiKey', errorCode: 'required.openapi.validation' },
      ],
      'Missing required parameter: apiKey',
    ],
  ])('picks %s', (_, issues, want) => {
    expect(validationMessage(issues, documented)).toEqual({ message: want, status: 300 });
  });

  it('keeps the status a message is documented with', () => {
    const login: ErrorMessage[] = [
      { message: 'Invalid API key', condition: 'x', field: 'apiKey', reason: 'invalid', status: 403 },
    ];
    expect(validationMessage([{ path: '/body/apiKey', errorCode: 'type.openapi.validation' }], login)).toEqual({
      message: 'Invalid API key',
      status: 403,
    });
  });
});
