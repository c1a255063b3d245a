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

describe('validationMessage with oneOf fields and typed errors', () => {
  const deposit: ErrorMessage[] = [
    {
      message: 'invalid JSON format in value parameter',
      condition: 'x',
      field: 'value',
      reason: 'invalid',
      keyword: 'contentMediaType',
    },
    {
      message: 'value must be a JSON object with assetId - price mapping',
      condition: 'x',
      field: 'value',
      reason: 'invalid',
      keyword: 'type',
    },
    { message: 'Invalid value parameter', condition: 'x', field: 'value', reason: 'invalid', keyword: 'propertyNames' },
    {
      message: 'invalid deposit key for assetId: <asset_id>',
      condition: 'x',
      field: 'depositKeys',
      reason: 'invalid',
      keyword: 'pattern',
    },
    { message: 'Invalid trade ID', condition: 'x', field: 'tradeid', reason: 'invalid', type: 'error' },
  ];
  it('answers the type message when the value matches no branch', () => {
    const issues = [
      { path: '/body/value', errorCode: 'type.openapi.validation' },
      { path: '/body/value', errorCode: 'type.openapi.validation' },
      { path: '/body/value', errorCode: 'oneOf.openapi.validation' },
    ];
    expect(validationMessage(issues, deposit).message).toBe('value must be a JSON object with assetId - price mapping');
  });
  it('ignores the other branch when the value is an object that breaks its own rule', () => {
    const issues = [
      { path: '/body/value', errorCode: 'propertyNames.openapi.validation' },
      { path: '/body/value', errorCode: 'type.openapi.validation' },
      { path: '/body/value', errorCode: 'oneOf.openapi.validation' },
    ];
    expect(validationMessage(issues, deposit).message).toBe('Invalid value parameter');
  });
  it('never sends a message template with its placeholder', () => {
    expect(
      validationMessage([{ path: '/body/depositKeys/1', errorCode: 'pattern.openapi.validation' }], deposit).message,
    ).toBe('Invalid depositKeys parameter');
  });
  it('carries the error type of typed errors', () => {
    expect(validationMessage([{ path: '/params/tradeid', errorCode: 'type.openapi.validation' }], deposit)).toEqual({
      message: 'Invalid trade ID',
      status: 300,
      type: 'error',
    });
  });
});
