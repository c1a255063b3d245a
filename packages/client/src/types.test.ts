// Type tests, checked by `npm run typecheck` (tsc): what a call returns, what its errors carry, and
// the bridge for HTTP 300, which openapi-fetch leaves out of its `error` type.
import type { components } from '@marketplace/types';
import type { FetchResponse } from 'openapi-fetch';
import { describe, expectTypeOf, it } from 'vitest';
import { createMarketplaceClient } from './client.ts';
import type { MarketplaceError } from './errors.ts';
import type { BusinessErrorBody, Content, DocumentedMessage, Operation, OperationId, PathsWith } from './operations.ts';

type Schemas = components['schemas'];
const market = createMarketplaceClient({ baseUrl: 'http://127.0.0.1:1' });

describe('types of the client', () => {
  it('a call answers the payload of the envelope, not the envelope', () => {
    expectTypeOf<Content<Operation<'/item/buyorder', 'post'>>>().toEqualTypeOf<{ details: 'Inserted' }>();
    expectTypeOf<Content<Operation<'/user/login', 'post'>>>().toEqualTypeOf<{ jwt: string }>();
    expectTypeOf<Content<Operation<'/infos/admin', 'get'>>>().toEqualTypeOf<Schemas['StaffEntry'][]>();
    expectTypeOf(market.POST<'/item/buyorder'>).returns.resolves.toEqualTypeOf<{ details: 'Inserted' }>();
  });

  it('requires what the operation requires, and only its methods', () => {
    // Never called: the calls only have to compile, or not.
    const calls = () => {
      // @ts-expect-error the game query parameter is required
      void market.GET('/item/prices');
      void market.GET('/item/prices', { params: { query: { game: 440 } } });
      // @ts-expect-error the body is required
      void market.POST('/item/buyorder');
      // @ts-expect-error /item/buyorder has no GET
      void market.GET('/item/buyorder');
    };
    expectTypeOf(calls).toBeFunction();
    expectTypeOf<'/item/buyorder'>().toExtend<PathsWith<'post'>>();
    expectTypeOf<'/item/buyorder'>().not.toExtend<PathsWith<'get'>>();
  });

  it('bridges HTTP 300: openapi-fetch leaves it out of `error`, BusinessErrorBody has it for either envelope', () => {
    type Raw = FetchResponse<Operation<'/item/buyorder', 'post'>, undefined, `${string}/${string}`>;
    type FetchError = Exclude<Raw['error'], undefined>;
    // openapi-fetch's error is built from 4xx/5xx only: the 300 answer's schema is not what it names.
    expectTypeOf<BusinessErrorBody<Operation<'/item/buyorder', 'post'>>>().toEqualTypeOf<Schemas['EnvelopeAError']>();
    expectTypeOf<FetchError>().not.toEqualTypeOf<Schemas['EnvelopeAError']>();
    expectTypeOf<BusinessErrorBody<Operation<'/support/create', 'post'>>>().toExtend<Schemas['EnvelopeBError']>();
  });

  it('an error names its operation and accepts only documented messages', () => {
    expectTypeOf<OperationId<'/item/buyorder', 'post'>>().toEqualTypeOf<'postItemBuyorder'>();
    expectTypeOf<'Not enough balance'>().toExtend<DocumentedMessage<'/item/buyorder', 'post'>>();
    expectTypeOf<'Country blocked'>().not.toExtend<DocumentedMessage<'/item/buyorder', 'post'>>();
    const error = {} as MarketplaceError<'/item/buyorder', 'post'>;
    expectTypeOf(error.is).parameter(0).toExtend<string>();
    const check = () => {
      error.is('Not enough balance');
      error.is('Missing required parameter: itemid');
      // @ts-expect-error a message of another operation
      error.is('Country blocked');
    };
    expectTypeOf(check).toBeFunction();
  });
});
