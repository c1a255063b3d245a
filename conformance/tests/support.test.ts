// Support tickets and messages (seed: "Support and messages", "Support ticket", "Messages by
// endpoint", Limits "Support message max 10,000 characters (admin 200,000)", Events "POST
// /admin/support/post sends a message to an internal moderation chat channel"). Envelope B.
// The document's design where the seed is silent: status 0 open, 1 answered, 2 closed; ticket
// numbers count per user; HTML tags are stripped from what is stored, entities are kept as sent.
import type { Schema } from '@marketplace/types';
import { beforeAll, describe, it } from 'vitest';
import { avatarsOf } from '../src/kit/avatars.ts';
import { content, getOk, needsHelpers, resetIfPossible } from '../src/kit/behavior.ts';
import { boundOf, operationOf, pastBoundMessage } from '../src/kit/bounds.ts';
import { helpers, session } from '../src/kit/helpers.ts';
import { type Answer, assertConforms, assertThat, call, pinsMeaning, setUpOk } from '../src/kit/http.ts';
import { sides } from '../src/kit/rule.ts';
import { skip } from '../src/kit/skip.ts';
import { needsVariant } from '../src/kit/variants.ts';

beforeAll(resetIfPossible);

type Me = Awaited<ReturnType<typeof session>>;
/** A ticket message as users (`SupportMessage`) or admins (`AdminSupportMessage`) read it. */
type Message = Schema<'SupportMessage'> & Partial<Schema<'AdminSupportMessage'>>;

const post = async (me: Me, path: string, json: object) => {
  const answer = await call('POST', path, { json, token: me.token, ip: me.ip });
  assertConforms(answer);
  return answer;
};
const get = async (me: Me, path: string, query: Record<string, string | number> = {}) => {
  const answer = await call('GET', path, { query, token: me.token, ip: me.ip });
  assertConforms(answer);
  return answer;
};
const refused = (a: Answer, message: string) => a.status === 300 && a.message === message;

/** A user's message limit: the document's `maxLength` of `content`. */
const userPost = operationOf('POST', '/support/post');
const longestUser = boundOf(userPost, 'content', 'maxLength');

const ticketBody = {
  subject: 'Withdrawal stuck',
  description: 'Pending for two days.',
  topic: 'trading',
  concern: 'withdrawal',
};

/** Opens a ticket and returns its number. */
async function open(me: Me, body: Partial<typeof ticketBody> & { attachment?: string } = {}): Promise<number> {
  const created = await post(me, '/support/create', { ...ticketBody, ...body });
  assertThat(created, created.status === 200 && content(created).message === 'Ticket created', 'the ticket is created');
  return content(created).ticket;
}

const messagesOf = async (me: Me, ticket: number): Promise<Message[]> =>
  content(await getOk(`/support/messages/${ticket}`, {}, me.token, me.ip)).messages;

describe('POST /support/create, GET /support/list, GET /support/messages/{ticket}', () => {
  it('Given a user, tickets are numbered per user from 1, listed with status 0 (open), the description is the first message, and a reply on the older one lists it first [R-SUPPORT-TICKETS]', async (ctx) => {
    await needsHelpers(ctx);
    const me = await session();
    const during = async <T>(act: () => Promise<T>) => {
      const from = await helpers.now();
      const value = await act();
      return { value, from, to: await helpers.now() };
    };
    const first = await during(() => open(me));
    await helpers.advance(3600);
    const second = await during(() => open(me, { subject: 'Deposit missing', topic: 'payment', concern: 'deposit' }));
    const other = await session();
    const theirs = await open(other, { description: 'Their own first ticket.' });
    const list = await getOk('/support/list', {}, me.token, me.ip);
    const rows = content(list).list as { ticket: number; created: number; last_message: number }[];
    assertThat(
      list,
      first.value === 1 && second.value === 2 && theirs === 1,
      'numbers count per user: 1, 2 for me, 1 for them',
    );
    const times = rows.map(({ created, last_message }) => ({ created, last_message }));
    assertThat(
      list,
      JSON.stringify(rows.map(({ created: _, last_message: __, ...row }) => row)) ===
        JSON.stringify([
          { ticket: 2, subject: 'Deposit missing', topic: 'payment', concern: 'deposit', status: 0 },
          { ticket: 1, subject: ticketBody.subject, topic: 'trading', concern: 'withdrawal', status: 0 },
        ]),
      'my two tickets, most recent activity first, open',
    );
    const within = (t: number, w: { from: number; to: number }) => t >= w.from && t <= w.to;
    assertThat(
      list,
      times.every((t) => t.created === t.last_message) &&
        within(times[0]!.created, second) &&
        within(times[1]!.created, first),
      'created and last_message are the server clock at creation',
    );
    const messages = await messagesOf(me, 1);
    assertThat(
      list,
      messages.length === 1 &&
        messages[0]!.content === ticketBody.description &&
        messages[0]!.user === me.platformId &&
        messages[0]!.admin === null &&
        messages[0]!.timestamp === times[1]!.created &&
        messages[0]!.attachments === '',
      'the description is the first message, written by the user, no attachment',
    );
    // "Most recent activity first": a message on the older ticket brings it to the top, where a
    // list by creation (or by number) keeps it second; its last_message moves, its created does not.
    await helpers.advance(60);
    const replied = await during(() => post(me, '/support/post', { content: 'Any news?', ticket: 1 }));
    setUpOk(replied.value);
    pinsMeaning(
      'GET /support/list list[].subject',
      'GET /support/list list[].topic',
      'GET /support/list list[].concern',
      'GET /support/list list',
      'GET /support/list list[].ticket',
      'GET /support/list list[].created',
      'GET /support/list list[].last_message',
    );
    const after = await getOk('/support/list', {}, me.token, me.ip);
    const reordered = content(after).list as { ticket: number; created: number; last_message: number }[];
    assertThat(
      after,
      reordered.map((r) => r.ticket).join() === '1,2' &&
        reordered[0]!.created === times[1]!.created &&
        within(reordered[0]!.last_message, replied) &&
        reordered[1]!.last_message === times[0]!.last_message,
      `a reply on ticket 1 lists it first, created kept, last_message the reply's time (got ${JSON.stringify(reordered)})`,
    );
    // Ticket 1's messages (not ticket 2's, the newer one): the description at creation, the reply at its time.
    const thread = await getOk('/support/messages/1', {}, me.token, me.ip);
    const read = content(thread).messages as Message[];
    assertThat(
      thread,
      content(thread).ticket === 1 &&
        read.map((m) => m.content).join('|') === `${ticketBody.description}|Any news?` &&
        read[0]!.timestamp === times[1]!.created &&
        within(read[1]!.timestamp, replied),
      `ticket 1, its two messages each at its own time (got ${JSON.stringify(content(thread))})`,
    );
    pinsMeaning(
      'POST /support/create ticket',
      'GET /support/messages/{ticket} ticket',
      'GET /support/messages/{ticket} messages',
      'GET /support/messages/{ticket} messages[].timestamp',
    );
  });

  it("Given another user's ticket, its number answers `Ticket not found or no access` to me for reading and posting [R-MSG-SUPPORT-MESSAGES]", async (ctx) => {
    await needsHelpers(ctx);
    const owner = await session();
    const stranger = await session();
    const ticket = await open(owner, { description: 'Private matter.' });
    const read = await get(stranger, `/support/messages/${ticket}`);
    assertThat(read, refused(read, 'Ticket not found or no access'), 'a ticket of someone else is not readable');
    const write = await post(stranger, '/support/post', { content: 'Let me in', ticket });
    assertThat(write, refused(write, 'Ticket not found or no access'), 'nor writable');
    const ownList = await getOk('/support/list', {}, stranger.token, stranger.ip);
    assertThat(ownList, content(ownList).list.length === 0, 'and not listed for the stranger');
    const mine = await messagesOf(owner, ticket);
    assertThat(read, mine.length === 1, "the owner's ticket is unchanged");
  });

  it('Given a missing field or an invalid attachment, create answers the seed message and opens nothing [R-MSG-SUPPORT-CREATE]', async (ctx) => {
    await needsHelpers(ctx);
    const me = await session();
    for (const field of ['subject', 'description', 'topic', 'concern'] as const) {
      const { [field]: _, ...rest } = ticketBody;
      const absent = await post(me, '/support/create', rest);
      assertThat(
        absent,
        refused(absent, 'Missing required parameters: subject, description, topic, concern'),
        `${field} absent`,
      );
      const empty = await post(me, '/support/create', { ...ticketBody, [field]: '' });
      assertThat(
        empty,
        refused(empty, 'Missing required parameters: subject, description, topic, concern'),
        `${field} empty`,
      );
      // The document (POST /support/create): a field "of whitespace only, counts as missing".
      const blank = await post(me, '/support/create', { ...ticketBody, [field]: ' \t ' });
      assertThat(
        blank,
        refused(blank, 'Missing required parameters: subject, description, topic, concern'),
        `${field} of whitespace only`,
      );
    }
    const tagsOnly = await post(me, '/support/create', { ...ticketBody, description: '<p></p>' });
    assertThat(
      tagsOnly,
      refused(tagsOnly, 'Missing required parameters: subject, description, topic, concern'),
      'a description that is nothing but tags is empty once stripped',
    );
    for (const attachment of ['not base64!', 'QUJD=', 'QUJDRA']) {
      const bad = await post(me, '/support/create', { ...ticketBody, attachment });
      assertThat(bad, refused(bad, 'Invalid attachment'), `attachment ${JSON.stringify(attachment)} is not base64`);
    }
    const tooLong = await post(me, '/support/create', { ...ticketBody, description: 'x'.repeat(10_001) });
    assertThat(tooLong, refused(tooLong, 'Invalid description parameter'), 'a description of 10,001 characters');
    const list = await getOk('/support/list', {}, me.token, me.ip);
    assertThat(list, content(list).list.length === 0, 'no ticket was opened');
    const attached = await open(me, { attachment: Buffer.from('screenshot bytes').toString('base64') });
    setUpOk(await post(me, '/support/post', { content: 'No file this time', ticket: attached }));
    const [first, plain] = await messagesOf(me, attached);
    assertThat(
      list,
      first!.attachments !== '' && plain!.attachments === '',
      'a valid attachment is kept as a reference on its message; the next message, without one, has none',
    );
    pinsMeaning('GET /support/messages/{ticket} messages[].attachments');
  });
});

describe('POST /support/post', () => {
  // The description is the ticket's first message (R-SUPPORT-TICKETS), so the seed's message limit
  // holds for it too; the subject, topic and concern bounds are the document's own.
  const create = operationOf('POST', '/support/create');
  const fields = ['description', 'subject', 'topic', 'concern'] as const;
  it(
    `Given a user, a ticket whose ${fields.join(', ')} are each at their documented maxLength is created, and each one character longer is refused with its message [R-LIMIT-SUPPORT-MESSAGE]`,
    sides(['at the limit', 'past the limit'], 'R-LIMIT-SUPPORT-MESSAGE'),
    async (ctx) => {
      await needsHelpers(ctx);
      const me = await session();
      const longest = Object.fromEntries(fields.map((f) => [f, 'd'.repeat(boundOf(create, f, 'maxLength'))]));
      const ticket = await open(me, longest);
      const read = await getOk(`/support/messages/${ticket}`, {}, me.token, me.ip);
      assertThat(
        read,
        (content(read).messages as Message[])[0]?.content === longest.description,
        `a description of ${longest.description!.length} characters is stored whole as the first message`,
      );
      for (const f of fields) {
        const over = await post(me, '/support/create', { ...ticketBody, [f]: `${longest[f]}d` });
        const message = pastBoundMessage(create, f, 'maxLength');
        assertThat(over, refused(over, message), `${f} of ${longest[f]!.length + 1} characters: ${message}`);
      }
      const list = await getOk('/support/list', {}, me.token, me.ip);
      assertThat(list, content(list).list.length === 1, 'the refused tickets are not opened');
    },
  );

  it(
    `Given a ticket, ${longestUser} characters are accepted and ${longestUser + 1} are refused with its message [R-LIMIT-SUPPORT-MESSAGE, R-SUPPORT-POST]`,
    sides(['at the limit', 'past the limit'], 'R-LIMIT-SUPPORT-MESSAGE'),
    async (ctx) => {
      await needsHelpers(ctx);
      const me = await session();
      // The older of two tickets: the answer names the ticket posted on, not the newest.
      const ticket = await open(me);
      await open(me);
      const longest = 'a'.repeat(longestUser);
      const accepted = await post(me, '/support/post', { content: longest, ticket });
      assertThat(
        accepted,
        accepted.status === 200 && content(accepted).ticket === ticket && typeof content(accepted).message === 'string',
        `${longestUser} characters are the limit`,
      );
      pinsMeaning('POST /support/post ticket');
      const over = await post(me, '/support/post', { content: `${longest}a`, ticket });
      const message = pastBoundMessage(userPost, 'content', 'maxLength');
      assertThat(over, refused(over, message), `${longestUser + 1} characters are one too many: ${message}`);
      const messages = await messagesOf(me, ticket);
      assertThat(
        over,
        messages.length === 2 && messages[1]!.content === longest,
        'the accepted message is stored whole; the refused one is not stored',
      );
    },
  );

  it('Given HTML in a message, tags are stripped, text and entities are kept, and tags hidden inside tags do not survive [R-SUPPORT-POST]', async (ctx) => {
    await needsHelpers(ctx);
    const me = await session();
    const ticket = await open(me, { description: '<h1>Help</h1> please' });
    const cases: [sent: string, stored: string][] = [
      ['<b>Hello</b> <i>world</i>', 'Hello world'],
      ['<script>alert(1)</script>done', 'alert(1)done'],
      ['1 < 2 and 3 > 2, 5 <3', '1 < 2 and 3 > 2, 5 <3'],
      ['Tom &amp; Jerry &lt;b&gt;', 'Tom &amp; Jerry &lt;b&gt;'],
      ['<<b>script>alert(1)<</b>/script>', 'alert(1)'],
      ['a<!-- hidden -->b<br/>c<img src=x onerror=alert(1)>d', 'abcd'],
      ['trailing <a href="x"', 'trailing '],
      // A comment holding `>` is removed whole; a `>` inside a quoted attribute closes no tag; a
      // tag whose quote never closes runs to the end (no `>` follows it).
      ['a<!-- 1 > 0 -->b', 'ab'],
      ['<a title="1 > 0">x</a><i title=\'2 > 1\'>y</i>', 'xy'],
      ['c<a title="open', 'c'],
      ["d<a title='open", 'd'],
    ];
    for (const [sent] of cases) {
      const answer = await post(me, '/support/post', { content: sent, ticket });
      assertThat(answer, answer.status === 200, `${JSON.stringify(sent)} is accepted`);
    }
    const messages = await messagesOf(me, ticket);
    const stored = messages.map((m) => m.content);
    const want = ['Help please', ...cases.map(([, s]) => s)];
    assertThat(
      await get(me, `/support/messages/${ticket}`),
      JSON.stringify(stored) === JSON.stringify(want),
      `stored ${JSON.stringify(stored)}, want ${JSON.stringify(want)}`,
    );
    // Ten `<` before nine nested `b>`: however deep a server undoes the nesting, what it stores
    // holds no tag and only characters sent, in their order.
    const nested = `${'<'.repeat(10)}${'b>'.repeat(9)}`;
    setUpOk(await post(me, '/support/post', { content: nested, ticket }));
    const kept = (await messagesOf(me, ticket)).at(-1)!.content;
    // Where the next stored character may be found in what was sent; -1 once one is missing.
    const next = [...kept].reduce((from, ch) => (from < 0 ? from : nested.indexOf(ch, from) + 1 || -1), 0);
    const inOrder = next >= 0;
    assertThat(
      await get(me, `/support/messages/${ticket}`),
      !/<[A-Za-z/!?]/.test(kept) && inOrder,
      `${JSON.stringify(nested)} is stored as ${JSON.stringify(kept)}: no tag left, nothing added`,
    );
    const empty = await post(me, '/support/post', { content: '<b></b>', ticket });
    assertThat(empty, refused(empty, 'Missing required parameters: content, ticket'), 'nothing left after stripping');
  });

  it('Given missing fields or a bad attachment, post answers the seed messages and stores nothing [R-MSG-SUPPORT-POST]', async (ctx) => {
    await needsHelpers(ctx);
    const me = await session();
    const ticket = await open(me);
    const cases: [body: object, message: string][] = [
      [{ ticket }, 'Missing required parameters: content, ticket'],
      [{ content: '', ticket }, 'Missing required parameters: content, ticket'],
      [{ content: ' \n ', ticket }, 'Missing required parameters: content, ticket'],
      [{ content: 'hi' }, 'Missing required parameters: content, ticket'],
      [{ content: 'hi', ticket, attachment: '%%%' }, 'Invalid attachment'],
      [{ content: 'hi', ticket: ticket + 1 }, 'Ticket not found or no access'],
    ];
    for (const [body, message] of cases) {
      const answer = await post(me, '/support/post', body);
      assertThat(answer, refused(answer, message), `${JSON.stringify(body)} answers ${message}`);
    }
    assertThat(await get(me, '/support/list'), (await messagesOf(me, ticket)).length === 1, 'only the description');
    const ok = await post(me, '/support/post', { content: 'with a file', ticket, attachment: 'aGVsbG8=' });
    assertThat(ok, ok.status === 200, 'a valid base64 attachment is accepted');
  });
});

describe('POST /support/post: characters and form bodies', () => {
  it('Given emoji, the 10,000 limit counts characters, not UTF-16 units; a form-encoded body is read like JSON [R-LIMIT-SUPPORT-MESSAGE, R-JSON-BODIES]', async (ctx) => {
    await needsHelpers(ctx);
    const me = await session();
    const ticket = await open(me);
    const emoji = '\u{1F600}'.repeat(10_000);
    const accepted = await post(me, '/support/post', { content: emoji, ticket });
    assertThat(accepted, accepted.status === 200, '10,000 emoji are 10,000 characters');
    const over = await post(me, '/support/post', { content: `${emoji}\u{1F600}`, ticket });
    assertThat(over, refused(over, 'Invalid content parameter'), '10,001 emoji are too many');
    const form = await call('POST', '/support/post', {
      form: { content: 'From a <i>form</i>', ticket: String(ticket), attachment: 'ab+/' },
      token: me.token,
      ip: me.ip,
    });
    assertConforms(form);
    assertThat(form, form.status === 200 && content(form).ticket === ticket, 'a form body with an attachment');
    const messages = await messagesOf(me, ticket);
    assertThat(
      form,
      messages.length === 3 && messages[1]!.content === emoji && messages[2]!.content === 'From a form',
      'both stored, the form one stripped',
    );
  });

  // The emoji above all start with one high surrogate (U+D83D): a count that takes only part of the
  // high-surrogate range (U+D800 to U+DBFF) as the start of one character passes that test. U+10000
  // and U+10FFFD start with the two ends of the range. The unit is the one the test above reads from
  // the document (`maxLength: 10000`, JSON Schema's characters: code points), asked at the range's ends.
  it('Given 10,000 characters from both ends of the planes past the first (U+10000, U+10FFFD), each counts as one character like an emoji: accepted and stored; one more is refused; so does U+1F3FF, whose low half ends the low range [R-LIMIT-SUPPORT-MESSAGE]', async (ctx) => {
    await needsHelpers(ctx);
    const me = await session();
    const ticket = await open(me);
    const edges = '\u{10000}'.repeat(5_000) + '\u{10FFFD}'.repeat(5_000);
    const accepted = await post(me, '/support/post', { content: edges, ticket });
    assertThat(accepted, accepted.status === 200, '5,000 x U+10000 and 5,000 x U+10FFFD are 10,000 characters');
    const over = await post(me, '/support/post', { content: `${edges}\u{10000}`, ticket });
    assertThat(over, refused(over, 'Invalid content parameter'), '10,001 such characters are too many');
    const messages = await messagesOf(me, ticket);
    assertThat(accepted, messages.length === 2 && messages[1]!.content === edges, 'the message is stored as sent');
    // U+1F3FF's low half is U+DFFF, the top of the low-surrogate range: one character too.
    const top = '\u{1F3FF}'.repeat(10_000);
    const lowTop = await post(me, '/support/post', { content: top, ticket });
    assertThat(lowTop, lowTop.status === 200, '10,000 x U+1F3FF (U+D83C U+DFFF) are 10,000 characters');
  });
});

describe('POST /support/create and /support/post at the attachment size limit', () => {
  it('Given a valid attachment of exactly 7,000,000 base64 characters, it is accepted; 7,000,004 are refused with `Invalid attachment` [R-MSG-SUPPORT-CREATE, R-MSG-SUPPORT-POST]', async (ctx) => {
    await needsHelpers(ctx);
    const me = await session();
    const largest = 'A'.repeat(7_000_000); // 5,250,000 zero bytes, padded base64
    const created = await post(me, '/support/create', { ...ticketBody, attachment: largest });
    assertThat(created, created.status === 200, 'the largest attachment opens a ticket (never a 5xx)');
    const ticket = content(created).ticket as number;
    const posted = await post(me, '/support/post', { content: 'second file', ticket, attachment: largest });
    assertThat(posted, posted.status === 200, 'and is accepted on a message');
    const over = await post(me, '/support/post', { content: 'too big', ticket, attachment: `${largest}AAAA` });
    assertThat(over, refused(over, 'Invalid attachment'), 'four characters more are refused');
    const messages = await messagesOf(me, ticket);
    assertThat(
      over,
      messages.length === 2 &&
        messages.every((m) => m.attachments !== '') &&
        messages[0]!.attachments === messages[1]!.attachments,
      'two messages, each with a reference to the same bytes',
    );
  });
});

describe('Admin support: list, messages, post, status', () => {
  it('Given a user ticket, an admin answer sets it answered and assigned, is read by the user, and notifies the moderation channel [R-ADMIN-SUPPORT, R-EVENT-MODERATION]', async (ctx) => {
    await needsHelpers(ctx);
    const admin = await session({ admin: true, name: 'Moderator Kim' });
    const user = await session({ name: 'Ticket Owner' });
    const ticket = await open(user);
    const before = await getOk('/admin/support/list', {}, admin.token, admin.ip);
    const row = (content(before).list as { ticket: number; user: string }[]).find(
      (r) => r.user === user.platformId && r.ticket === ticket,
    );
    assertThat(
      before,
      JSON.stringify(row) ===
        JSON.stringify({ ticket, user: user.platformId, subject: ticketBody.subject, status: 0, assigned: null }),
      "the admin list has the user's ticket, open and unassigned",
    );
    const notices = (await helpers.outbox('moderation')).length;
    const answer = 'The trade was resent; please check your offers.';
    const posted = await post(admin, '/admin/support/post', { content: answer, ticket, user: user.platformId });
    assertThat(posted, posted.status === 200 && content(posted).ticket === ticket, 'the admin answers');
    const moderation = await helpers.outbox('moderation');
    assertThat(
      posted,
      moderation.length === notices + 1,
      // The seed's Events: the answer "sends a moderation-channel notification"; what it carries is
      // not shown (the helper contract's `data` names only a verification `code`), so no key is demanded.
      `one moderation notice per answer (got ${JSON.stringify(moderation.slice(notices))})`,
    );
    // A chat message says something: the notice has a text, its body; any wording passes (as the
    // ban's notice in admin.test.ts).
    const body = moderation.at(-1)?.body;
    assertThat(
      posted,
      typeof body === 'string' && body.trim() !== '',
      `the notice carries a text (got ${JSON.stringify(body)})`,
    );
    pinsMeaning('event moderation: POST /admin/support/post');
    const mine = await messagesOf(user, ticket);
    assertThat(
      posted,
      mine.length === 2 &&
        mine[1]!.content === answer &&
        mine[1]!.admin === 'Moderator Kim' &&
        mine[1]!.user === user.platformId,
      "the user reads the admin's answer with the admin's name",
    );
    const list = await getOk('/support/list', {}, user.token, user.ip);
    assertThat(list, content(list).list[0].status === 1, 'the ticket is answered (1)');
    const adminView = await getOk(`/admin/support/messages/${ticket}/${user.platformId}`, {}, admin.token, admin.ip);
    const viewed = content(adminView).messages as Message[];
    assertThat(
      adminView,
      content(adminView).ticket === ticket &&
        viewed.length === 2 &&
        viewed.every((m) => m.assigned === 'Moderator Kim' && m.status === 'answered'),
      'the admin sees the assigned admin and the textual status on every message',
    );
    // The admin reads the very messages the user reads (each field), the ticket's row answered
    // and assigned to the admin who answered.
    const fields = (m: Message) => [m.id, m.user, m.content, m.admin, m.timestamp, m.attachments].join('|');
    assertThat(
      adminView,
      viewed.map(fields).join() === mine.map(fields).join(),
      `the admin view's messages are the user's (got ${JSON.stringify(viewed)})`,
    );
    const answered = (
      content(await getOk('/admin/support/list', {}, admin.token, admin.ip)).list as Record<string, unknown>[]
    ).find((r) => r.user === user.platformId && r.ticket === ticket);
    assertThat(
      adminView,
      answered?.status === 1 && answered.assigned === 'Moderator Kim',
      `the admin list: answered (1), assigned to Moderator Kim (got ${JSON.stringify(answered)})`,
    );
    pinsMeaning(
      'GET /admin/support/list list',
      'GET /admin/support/list list[].status',
      'GET /admin/support/list list[].assigned',
      'GET /admin/support/messages/{ticket}/{user} messages',
      'GET /admin/support/messages/{ticket}/{user} messages[].user',
      'GET /admin/support/messages/{ticket}/{user} messages[].content',
      'GET /admin/support/messages/{ticket}/{user} messages[].admin',
      'GET /admin/support/messages/{ticket}/{user} messages[].timestamp',
      'GET /admin/support/messages/{ticket}/{user} messages[].attachments',
    );
    const reply = await post(user, '/support/post', { content: 'Thanks, got it.', ticket });
    assertThat(reply, reply.status === 200, 'the user replies');
    const after = await getOk('/support/list', {}, user.token, user.ip);
    assertThat(after, content(after).list[0].status === 0, "the user's message makes it open again (0)");
    // A message's ID is its own: the three of this ticket and the description of another ticket
    // of the same user share none (its position in the thread, the ticket number or the author
    // read as the ID would repeat), and the admin reads each under the ID the user reads it.
    const thread = await messagesOf(user, ticket);
    const second = await open(user, { subject: 'Another question' });
    const ids = [...thread, ...(await messagesOf(user, second))].map((m) => m.id);
    const adminIds = (
      content(await getOk(`/admin/support/messages/${ticket}/${user.platformId}`, {}, admin.token, admin.ip))
        .messages as Message[]
    ).map((m) => m.id);
    assertThat(
      after,
      ids.length === 4 && new Set(ids).size === 4 && adminIds.join() === thread.map((m) => m.id).join(),
      `four messages, four IDs, the same in the admin's view (got ${ids.join()}; admin ${adminIds.join()})`,
    );
    pinsMeaning(
      'GET /support/messages/{ticket} messages[].id',
      'GET /admin/support/messages/{ticket}/{user} messages[].id',
    );
    // Open, answered, open again; the user's message without an admin, the admin's with a name, in
    // the order written; the admin list's row naming the owner.
    pinsMeaning(
      'GET /support/list list[].status',
      'GET /support/messages/{ticket} messages[].admin',
      'GET /support/messages/{ticket} messages[].content',
      'GET /support/messages/{ticket} messages[].user',
      'GET /admin/support/messages/{ticket}/{user} messages[].assigned',
      'GET /admin/support/messages/{ticket}/{user} messages[].status',
      'GET /admin/support/messages/{ticket}/{user} ticket',
      'GET /admin/support/list list[].ticket',
      'GET /admin/support/list list[].user',
      'GET /admin/support/list list[].subject',
    );
  });

  const adminPost = operationOf('POST', '/admin/support/post');
  const longestAdmin = boundOf(adminPost, 'content', 'maxLength');
  it(
    `Given an admin, ${longestAdmin} characters are accepted and ${longestAdmin + 1} refused; an unknown ticket or user is not found [R-LIMIT-SUPPORT-MESSAGE]`,
    sides(['at the limit', 'past the limit'], 'R-LIMIT-SUPPORT-MESSAGE'),
    async (ctx) => {
      await needsHelpers(ctx);
      const admin = await session({ admin: true });
      const user = await session();
      // The user's second ticket, beside the first: the answer names the ticket posted on.
      await open(user);
      const ticket = await open(user);
      const longest = 'b'.repeat(longestAdmin);
      const accepted = await post(admin, '/admin/support/post', { content: longest, ticket, user: user.platformId });
      assertThat(
        accepted,
        accepted.status === 200 && content(accepted).ticket === ticket,
        `${longestAdmin} characters are the admin limit; the answer names ticket 2`,
      );
      pinsMeaning('POST /admin/support/post ticket');
      const over = await post(admin, '/admin/support/post', { content: `${longest}b`, ticket, user: user.platformId });
      const message = pastBoundMessage(adminPost, 'content', 'maxLength');
      assertThat(over, refused(over, message), `${longestAdmin + 1} characters are one too many: ${message}`);
      const blank = await post(admin, '/admin/support/post', { content: ' \n ', ticket, user: user.platformId });
      assertThat(blank, refused(blank, 'Missing required parameter: content'), 'content of whitespace only is missing');
      const userOver = await post(user, '/support/post', { content: 'c'.repeat(longestUser + 1), ticket });
      assertThat(
        userOver,
        refused(userOver, pastBoundMessage(userPost, 'content', 'maxLength')),
        `the user keeps the ${longestUser} limit`,
      );
      const messages = await messagesOf(user, ticket);
      assertThat(
        over,
        messages.length === 2 && messages[1]!.content.length === longestAdmin,
        'one admin message, whole',
      );
      const stranger = await session();
      for (const [t, u] of [
        [ticket + 1, user.platformId],
        [ticket, stranger.platformId],
      ] as const) {
        const nope = await post(admin, '/admin/support/post', { content: 'x', ticket: t, user: u });
        assertThat(nope, refused(nope, 'Ticket not found or no access'), `ticket ${t} of ${u} does not exist`);
        const read = await get(admin, `/admin/support/messages/${t}/${u}`);
        assertThat(read, refused(read, 'Ticket not found or no access'), 'nor can it be read');
        const status = await post(admin, '/admin/support/status', { ticket: t, status: 2, user: u });
        assertThat(status, refused(status, 'Ticket not found or no access'), 'nor closed');
      }
    },
  );

  it('Given a closed ticket, the user and the admin are refused with the seed message until an admin reopens it [R-STATE-TICKET, R-MSG-SUPPORT-POST, R-ADMIN-SUPPORT]', async (ctx) => {
    await needsHelpers(ctx);
    const admin = await session({ admin: true });
    const user = await session();
    // The second of two tickets is closed: the answer names it, with the status set.
    await open(user);
    await helpers.advance(10);
    const ticket = await open(user);
    const closed = await post(admin, '/admin/support/status', { ticket, status: 2, user: user.platformId });
    assertThat(
      closed,
      closed.status === 200 && content(closed).ticket === ticket && content(closed).status === 2,
      'the admin closes the ticket',
    );
    const list = await getOk('/support/list', {}, user.token, user.ip);
    assertThat(list, content(list).list[0].status === 2, 'the user sees it closed (2)');
    const byUser = await post(user, '/support/post', { content: 'Hello?', ticket });
    assertThat(byUser, refused(byUser, 'Cannot send message: ticket is closed'), 'the user cannot write');
    const notices = (await helpers.outbox('moderation')).length;
    const byAdmin = await post(admin, '/admin/support/post', { content: 'Late answer', ticket, user: user.platformId });
    assertThat(byAdmin, refused(byAdmin, 'Cannot send message: ticket is closed'), 'nor can the admin');
    const after = await helpers.outbox('moderation');
    assertThat(byAdmin, after.length === notices, 'a refused answer sends no moderation notice');
    assertThat(byUser, (await messagesOf(user, ticket)).length === 1, 'nothing was stored');
    const view = await get(admin, `/admin/support/messages/${ticket}/${user.platformId}`);
    assertThat(view, content(view).messages[0].status === 'closed', 'the admin view says closed');
    const reopened = await post(admin, '/admin/support/status', { ticket, status: 0, user: user.platformId });
    assertThat(reopened, reopened.status === 200 && content(reopened).status === 0, 'the admin reopens it');
    const answered = await post(admin, '/admin/support/status', { ticket, status: 1, user: user.platformId });
    assertThat(answered, answered.status === 200 && content(answered).status === 1, 'status 1 (answered) is set too');
    const relisted = await getOk('/support/list', {}, user.token, user.ip);
    assertThat(relisted, content(relisted).list[0].status === 1, 'the user sees it answered (1)');
    pinsMeaning('POST /admin/support/status ticket', 'POST /admin/support/status status');
    const again = await post(user, '/support/post', { content: 'Hello again', ticket });
    assertThat(again, again.status === 200, 'the user can write again');
  });
});

describe('POST /admin/support/block', () => {
  it('Given a blocked user, creating and posting are refused with `You are blocked from support`, reading is not, another user is not blocked; unblocking lifts it [R-TRANS-SUPPORT-BLOCK]', async (ctx) => {
    await needsHelpers(ctx);
    const admin = await session({ admin: true });
    const user = await session();
    const ticket = await open(user);
    const blocked = await post(admin, '/admin/support/block', { user: user.platformId, status: 1 });
    assertThat(
      blocked,
      blocked.status === 200 && content(blocked).user === user.platformId && content(blocked).status === 1,
      'the admin blocks the user',
    );
    const create = await post(user, '/support/create', ticketBody);
    assertThat(create, refused(create, 'You are blocked from support'), 'no new ticket');
    const other = await session();
    const theirs = await post(other, '/support/create', ticketBody);
    assertThat(theirs, theirs.status === 200, 'the block is on that user only: another user opens a ticket');
    const write = await post(user, '/support/post', { content: 'Why?', ticket });
    assertThat(write, refused(write, 'You are blocked from support'), 'no new message');
    assertThat(write, (await messagesOf(user, ticket)).length === 1, 'the ticket is still readable and unchanged');
    const list = await getOk('/support/list', {}, user.token, user.ip);
    assertThat(list, content(list).list.length === 1, 'still one ticket');
    const answer = await post(admin, '/admin/support/post', {
      content: 'About your block',
      ticket,
      user: user.platformId,
    });
    assertThat(answer, answer.status === 200, 'an admin still answers a blocked user');
    assertThat(answer, (await messagesOf(user, ticket)).length === 2, 'who reads the answer');
    const unblocked = await post(admin, '/admin/support/block', { user: user.platformId, status: 0 });
    assertThat(unblocked, unblocked.status === 200 && content(unblocked).status === 0, 'the admin unblocks');
    pinsMeaning('POST /admin/support/block user', 'POST /admin/support/block status');
    assertThat(unblocked, (await open(user)) === ticket + 1, 'the user opens tickets again');
  });

  it('Given bad input, block answers the seed messages [R-MSG-ADMIN-SUPPORT-BLOCK]', async (ctx) => {
    await needsHelpers(ctx);
    const admin = await session({ admin: true });
    const user = await session();
    const cases: [body: object, message: string][] = [
      [{ status: 1 }, 'Missing required parameters: user, status'],
      [{ user: user.platformId }, 'Missing required parameters: user, status'],
      [{ user: user.platformId, status: 2 }, 'Invalid status. Status must be 0 (unblocked) or 1 (blocked)'],
      [{ user: user.platformId, status: -1 }, 'Invalid status. Status must be 0 (unblocked) or 1 (blocked)'],
      [{ user: 'abc', status: 1 }, 'Invalid user parameter'],
      // The document: "or no account has this ID".
      [
        { user: user.platformId === '76561190000000001' ? '76561190000000002' : '76561190000000001', status: 1 },
        'Invalid user parameter',
      ],
    ];
    for (const [body, message] of cases) {
      const answer = await post(admin, '/admin/support/block', body);
      assertThat(answer, refused(answer, message), `${JSON.stringify(body)} answers ${message}`);
    }
    assertThat(await get(user, '/support/list'), (await open(user)) === 1, 'the user was not blocked');
  });
});

describe('support answers as unread messages (seed: Events)', () => {
  it("Given an admin answer, the owner's GET /user/notifications counts one unread message until the ticket is read [R-EVENT-NOTIFICATIONS]", async (ctx) => {
    await needsHelpers(ctx);
    const admin = await session({ admin: true, name: 'Notifying Admin' });
    const user = await session();
    const ticket = await open(user);
    const before = await get(user, '/user/notifications');
    needsVariant(before, 'first'); // variant 2 counts no messages
    assertThat(before, content(before).messagesCount === 0, 'nothing unread before the answer');
    setUpOk(await post(admin, '/admin/support/post', { content: 'We are on it.', ticket, user: user.platformId }));
    const after = await get(user, '/user/notifications');
    assertThat(after, content(after).messagesCount === 1, 'the answer is one unread message');
    await messagesOf(user, ticket);
    const read = await get(user, '/user/notifications');
    assertThat(read, content(read).messagesCount === 0, 'reading the ticket reads it');
  });
});

describe('GET /user/infos message as the unread message count', () => {
  it('Given two unread answers, one read answer and an unread alert, a count in GET /user/infos message is the 2 unread messages [R-EVENT-NOTIFICATIONS]', async (ctx) => {
    await needsHelpers(ctx);
    const admin = await session({ admin: true });
    const user = await session();
    const [read, unread] = [await open(user), await open(user)];
    for (const ticket of [read, unread, unread])
      setUpOk(await post(admin, '/admin/support/post', { content: `About ${ticket}`, ticket, user: user.platformId }));
    await messagesOf(user, read);
    await helpers.notification({ platformId: user.platformId, kind: 'alert' });
    const infos = await get(user, '/user/infos');
    const message = content(infos).informations.message;
    // The document allows the bio text (a string) or the unread message count (an integer).
    if (typeof message === 'string')
      return skip(ctx, 'the target gives GET /user/infos message as the bio text, not a count');
    // Every message, every unread entry, the read ones or the unread alert count 4, 4, 1 or 1.
    assertThat(
      infos,
      message === 2,
      `the unread messages: 2 (not the 3 answers, the read one, nor with the unread alert); got ${message}`,
    );
  });
});

describe('GET /user/notifications unreadOnly and limit', () => {
  it('Given two answered tickets, one read, unreadOnly keeps the unread answer and limit caps the list; the count stays the unread one [R-EVENT-NOTIFICATIONS]', async (ctx) => {
    await needsHelpers(ctx);
    const admin = await session({ admin: true });
    const user = await session();
    const first = await open(user);
    const second = await open(user);
    for (const ticket of [first, second])
      setUpOk(await post(admin, '/admin/support/post', { content: `About ${ticket}`, ticket, user: user.platformId }));
    // Another user's answered ticket: neither listed nor counted for this user.
    const other = await session();
    const theirs = await open(other);
    setUpOk(await post(admin, '/admin/support/post', { content: 'Not yours', ticket: theirs, user: other.platformId }));
    await messagesOf(user, first);
    const all = await get(user, '/user/notifications', { limit: 10 });
    needsVariant(all, 'first'); // variant 2 has no lists for limit to cap
    assertThat(
      all,
      content(all).messages.length === 2 && content(all).messagesCount === 1,
      "both answers listed (read or not, not the other user's), one of them unread",
    );
    pinsMeaning('GET /user/notifications messages', 'GET /user/notifications messagesCount');
    const unread = await get(user, '/user/notifications', { unreadOnly: 'true', limit: 10 });
    assertThat(
      unread,
      content(unread).messages.length === 1 && content(unread).messagesCount === 1,
      'unreadOnly keeps the unread answer only',
    );
    const one = await get(user, '/user/notifications', { limit: 1 });
    assertThat(one, content(one).messages.length === 1, 'limit=1 keeps one entry');
  });
});

describe('GET /messages/list', () => {
  it("Given three tickets answered by two admins at different times, each is a conversation with its admin, by its last message, the other side's unread ones counted [R-MESSAGES-LIST]", async (ctx) => {
    await needsHelpers(ctx);
    const kim = await session({ admin: true, name: 'Agent Kim' });
    const lee = await session({ admin: true, name: 'Agent Lee' });
    const user = await session({ name: 'Many Tickets' });
    const avatars = await avatarsOf(ctx, [kim, lee, user]);
    const [t1, t2, t3] = [await open(user), await open(user), await open(user)];
    // Kim answers 1 and (twice) 3, Lee answers 2, the user replies on 1 last. By last message the
    // order is 1, 3, 2: not by creation (either way), nor by first answer (either way). The
    // unread answers are 0, 1, 2: not the messages nor the other side's messages in all.
    const at: Record<string, number> = {};
    const say = async (who: Me, key: string, json: { content: string; ticket: number }) => {
      await helpers.advance(10);
      at[key] = await helpers.pinClock();
      const byUser = who === user;
      setUpOk(
        await post(
          who,
          byUser ? '/support/post' : '/admin/support/post',
          byUser ? json : { ...json, user: user.platformId },
        ),
      );
    };
    await say(kim, 'kim1', { content: 'Kim on 1', ticket: t1 });
    await say(lee, 'lee2', { content: 'Lee on 2', ticket: t2 });
    await say(kim, 'kim3', { content: 'Kim on 3', ticket: t3 });
    await say(kim, 'kim3again', { content: 'Kim again on 3', ticket: t3 });
    await say(user, 'user1', { content: 'User on 1', ticket: t1 });
    // Another user's ticket answered by Kim: her list holds two owners' conversations.
    const other = await session({ name: 'Other Owner' });
    const theirs = await open(other);
    setUpOk(
      await post(kim, '/admin/support/post', { content: 'Kim to other', ticket: theirs, user: other.platformId }),
    );
    type Row = Schema<'Conversation'>;
    const listOf = async (me: Me) => content(await getOk('/messages/list', {}, me.token, me.ip)).list as Row[];
    const row = (c: Row) =>
      [c.with.platformId, c.with.name, c.with.image, c.lastMessage, c.timestamp, c.unread].join('|');
    const mine = await getOk('/messages/list', {}, user.token, user.ip);
    const rows = content(mine).list as Row[];
    const want = [
      [kim.platformId, 'Agent Kim', avatars.get(kim.platformId), 'User on 1', at.user1, 0],
      [kim.platformId, 'Agent Kim', avatars.get(kim.platformId), 'Kim again on 3', at.kim3again, 2],
      [lee.platformId, 'Agent Lee', avatars.get(lee.platformId), 'Lee on 2', at.lee2, 1],
    ].map((r) => r.join('|'));
    assertThat(
      mine,
      rows.map(row).join('\n') === want.join('\n'),
      `tickets 1, 3, 2: each with its admin, its last message and its time, the other side's unread answers (want ${JSON.stringify(want)}, got ${JSON.stringify(rows)})`,
    );
    // The same conversations from the admins' side, under the same IDs: Kim has the user's 1 and 3
    // (the user's reply on 1 unread) and the other owner's, Lee the user's 2.
    const kims = await listOf(kim);
    const lees = await listOf(lee);
    const kimsOfUser = kims.filter((c) => c.with.platformId === user.platformId);
    const ids = [
      ...rows.map((c) => c.id),
      ...kims.filter((c) => c.with.platformId === other.platformId).map((c) => c.id),
    ];
    assertThat(
      mine,
      kimsOfUser.map((c) => `${c.id}|${c.lastMessage}|${c.unread}|${c.with.image}`).join() ===
        [
          `${rows[0]!.id}|User on 1|1|${avatars.get(user.platformId)}`,
          `${rows[1]!.id}|Kim again on 3|0|${avatars.get(user.platformId)}`,
        ].join() &&
        lees.map((c) => `${c.id}|${c.with.platformId}|${c.unread}`).join() === `${rows[2]!.id}|${user.platformId}|0` &&
        new Set(ids).size === 4,
      `each conversation has one ID of its own, the same from both sides (user ${JSON.stringify(rows)}, Kim ${JSON.stringify(kims)}, Lee ${JSON.stringify(lees)})`,
    );
    // A new answer on 2 brings it first; each conversation keeps its ID (a position read as the ID
    // would move).
    await say(lee, 'lee2again', { content: 'Lee again on 2', ticket: t2 });
    const after = await listOf(user);
    assertThat(
      mine,
      after.map((c) => `${c.id}|${c.lastMessage}|${c.timestamp}`).join() ===
        [
          `${rows[2]!.id}|Lee again on 2|${at.lee2again}`,
          `${rows[0]!.id}|User on 1|${at.user1}`,
          `${rows[1]!.id}|Kim again on 3|${at.kim3again}`,
        ].join(),
      `Lee's new answer brings 2 first, each conversation under its ID (got ${JSON.stringify(after)})`,
    );
    pinsMeaning(
      'GET /messages/list list',
      'GET /messages/list list[].id',
      'GET /messages/list list[].with',
      'GET /messages/list list[].with.platformId',
      'GET /messages/list list[].with.name',
      'GET /messages/list list[].with.image',
      'GET /messages/list list[].lastMessage',
      'GET /messages/list list[].timestamp',
      'GET /messages/list list[].unread',
    );
  });

  it('Given an answered ticket, the user and the admin each see a conversation with the other, with the unread count [R-MESSAGES-LIST]', async (ctx) => {
    await needsHelpers(ctx);
    const admin = await session({ admin: true, name: 'Agent Smith' });
    const user = await session({ name: 'Curious Buyer' });
    const empty = await getOk('/messages/list', {}, user.token, user.ip);
    assertThat(empty, content(empty).list.length === 0, 'no conversation before an admin answers');
    const ticket = await open(user);
    setUpOk(await post(admin, '/admin/support/post', { content: 'First answer', ticket, user: user.platformId }));
    setUpOk(
      await post(admin, '/admin/support/post', { content: '<b>Second</b> answer', ticket, user: user.platformId }),
    );
    const mine = await getOk('/messages/list', {}, user.token, user.ip);
    const [conversation, ...rest] = content(mine).list;
    assertThat(
      mine,
      rest.length === 0 &&
        conversation.with.platformId === admin.platformId &&
        conversation.with.name === 'Agent Smith' &&
        conversation.lastMessage === 'Second answer' &&
        conversation.unread === 2,
      'one conversation with the admin: the last message, stripped, and two unread answers',
    );
    const theirs = await getOk('/messages/list', {}, admin.token, admin.ip);
    const withUser = (content(theirs).list as { with: { platformId: string }; unread: number }[]).find(
      (c) => c.with.platformId === user.platformId,
    );
    assertThat(theirs, withUser?.unread === 0, 'the admin sees the conversation with the user, nothing unread');
    setUpOk(await post(user, '/support/post', { content: 'Thanks', ticket }));
    const after = await getOk('/messages/list', {}, user.token, user.ip);
    assertThat(
      after,
      content(after).list[0].unread === 0 && content(after).list[0].lastMessage === 'Thanks',
      'answering reads the conversation',
    );
    const adminAfter = await getOk('/messages/list', {}, admin.token, admin.ip);
    const updated = (content(adminAfter).list as { with: { platformId: string }; unread: number }[]).find(
      (c) => c.with.platformId === user.platformId,
    );
    assertThat(adminAfter, updated?.unread === 1, "the user's reply is unread for the admin");
  });
});
