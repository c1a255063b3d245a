import { describe, expect, it } from 'vitest';
import { outboxAffiliates } from './affiliate.ts';
import { outboxMailer } from './mail.ts';
import { outboxModeration } from './moderation.ts';
import { Outbox } from './outbox.ts';

describe('the outbox adapters', () => {
  it('record mail, moderation notices and affiliate clicks on their channels, oldest first', async () => {
    const outbox = new Outbox();
    await outboxMailer(outbox).send(
      { to: 'a@example.com', kind: 'emailChange', subject: 'Code', body: 'Your code', data: { code: '123456' } },
      10,
    );
    outboxModeration(outbox).notify('ban', 'User banned', { platformId: '1' }, 11);
    outboxAffiliates(outbox).click('PARTNER', undefined, '1.2.3.4', 12);
    await outboxMailer(outbox).send({ to: 'b@example.com', kind: 'itemSold', subject: 'Sold', body: 'Sold' }, 13);
    expect(outbox.list({ channel: 'email' }).map((m) => m.to)).toEqual(['a@example.com', 'b@example.com']);
    expect(outbox.list({ channel: 'email', to: 'a@example.com' })[0]?.data).toEqual({ code: '123456' });
    expect(outbox.list({ channel: 'moderation' })[0]).toMatchObject({ kind: 'ban', timestamp: 11 });
    expect(outbox.list({ channel: 'affiliate' })[0]?.data).toEqual({ code: 'PARTNER', user: null, ip: '1.2.3.4' });
    expect(outbox.list().map((m) => m.id)).toEqual([1, 2, 3, 4]);
    outbox.clear();
    expect(outbox.list()).toEqual([]);
  });
});
