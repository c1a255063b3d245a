// Type tests, checked by `npm run typecheck` (tsc): handlers are typed from the document by their
// operationId. A handler that reads a field its operation does not declare, answers a shape its
// operation does not document, or is missing for an operation does not compile.
import type { Schema } from '@marketplace/types';
import { describe, expectTypeOf, it } from 'vitest';
import { ok } from '../domain/tx.ts';
import { routes } from '../routes/index.ts';
import type { AreaRoutes, Ctx, Handler, OperationId, Reply, Routes } from './context.ts';

describe('handlers typed by the document', () => {
  it('reads the body, query and path parameters the operation declares, typed by their schemas', () => {
    expectTypeOf<Ctx<'postItemBuyorder'>['body']>().toEqualTypeOf<Schema<'BuyOrderCreateRequest'>>();
    // Path and query values arrive typed by their schemas: `{item}` is a number, no `Number(...)`.
    expectTypeOf<Ctx<'getItemListingItem'>['params']>().toEqualTypeOf<{ item: number }>();
    expectTypeOf<Ctx<'getItemListingItem'>['query']['count']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<Ctx<'getItemPrices'>['query']['game']>().toEqualTypeOf<440 | 730 | 570 | 252490 | 753>();
  });

  it('does not compile a handler that reads a field the document does not have', () => {
    const handlers = {
      postItemBuyorder: async (ctx) => {
        // @ts-expect-error a typo of `itemid`: the operation's body has no such field
        void ctx.body.itmeid;
        return ok({ details: 'Inserted' as const });
      },
      getItemListingCountItem: (ctx) => {
        // @ts-expect-error `/item/listing/count/{item}` has no `userid` (its `/{userid}` variant has)
        void ctx.params.userid;
        // @ts-expect-error the operation takes no query parameter `page`
        void ctx.query.page;
        // @ts-expect-error a GET has no body fields
        void ctx.body.count;
        return ok({ count: 0 });
      },
    } satisfies AreaRoutes;
    expectTypeOf(handlers).toBeObject();
  });

  it('does not compile a handler that answers a shape the document does not allow', () => {
    expectTypeOf(ok({ balance: 10 })).toExtend<Reply<'getUserBalance'>>();
    // @ts-expect-error `balance` is an integer of cents, not a string
    const wrongType: Handler<'getUserBalance'> = () => ok({ balance: '10' });
    // @ts-expect-error `balance` is required
    const missing: Handler<'getUserBalance'> = () => ok({});
    // @ts-expect-error a literal of the document (`details: 'Inserted'`) is that literal
    const otherLiteral: Handler<'postItemBuyorder'> = () => ok({ details: 'Removed' as const });
    // @ts-expect-error a raw body only where the document has a non-JSON success (the CSV price list)
    const raw: Handler<'getUserBalance'> = () => ({ ok: true, raw: { contentType: 'text/csv', body: '' } });
    const csv: Handler<'getPublicPrice'> = () => ({ ok: true, raw: { contentType: 'text/csv', body: '' } });
    expectTypeOf([wrongType, missing, otherLiteral, raw, csv]).toBeArray();
  });

  it('does not compile a table without a handler for every operation, or with a misspelled one', () => {
    expectTypeOf(routes).toEqualTypeOf<Routes>();
    expectTypeOf<keyof Routes>().toEqualTypeOf<OperationId>();
    const { getUserBalance: _, ...rest } = routes;
    // @ts-expect-error getUserBalance is missing
    const incomplete: Routes = rest;
    // @ts-expect-error no operation is called getUserBalanse
    const misspelled: AreaRoutes = { getUserBalanse: () => ok({ balance: 0 }) };
    expectTypeOf([incomplete, misspelled]).toBeArray();
  });
});
