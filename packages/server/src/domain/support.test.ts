import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ADMIN, FORBIDDEN, SUPPORT } from './messages.ts';
import {
  adminTicketList,
  adminTicketMessages,
  answerTicket,
  characters,
  conversations,
  createTicket,
  isValidAttachment,
  type NewMessage,
  postMessage,
  setSupportBlock,
  setTicketStatus,
  stripHtml,
  ticketList,
  ticketMessages,
} from './support.ts';
import { testState } from './test-state.fixture.ts';
import { Tx } from './tx.ts';

describe('stripHtml', () => {
  it.each([
    ['plain text is unchanged', 'Hello, world', 'Hello, world'],
    ['tags go, their text stays', '<b>Hello</b> <i>world</i>', 'Hello world'],
    ['a script tag goes, its text stays as text', '<script>alert(1)</script>', 'alert(1)'],
    ['a < that opens no tag is text', '1 < 2 and 3 > 2, 5 <3, a <= b', '1 < 2 and 3 > 2, 5 <3, a <= b'],
    [
      'entities are kept as sent, not decoded',
      'Tom &amp; Jerry &lt;b&gt;x&lt;/b&gt;',
      'Tom &amp; Jerry &lt;b&gt;x&lt;/b&gt;',
    ],
    ['a tag split by tags does not come back', '<<b>script>alert(1)<</b>/script>', 'alert(1)'],
    ['deeper nesting too', '<<<i>b>script>x', 'x'],
    ['comments go, even with > inside', 'a<!-- x > y -->b', 'ab'],
    ['an unclosed comment drops the rest', 'a<!-- never closed', 'a'],
    ['self-closing and attribute tags go', 'a<br/>b<img src=x onerror=alert(1)>c', 'abc'],
    ['a > inside a quoted attribute does not end the tag', '<a title="x>y" href=\'>\'>link</a>', 'link'],
    ['an unfinished tag at the end is dropped', 'trailing <a href="x"', 'trailing '],
    ['so is text after a < and a letter with no >', 'if a<b then c', 'if a'],
    ['doctype and processing instructions go', '<!DOCTYPE html><?xml version="1.0"?>ok', 'ok'],
    ['whitespace is kept', '  <p> spaced </p>\n', '   spaced \n'],
    ['nothing but tags is empty', '<p></p><br>', ''],
  ])('%s', (_name, given, want) => {
    expect(stripHtml(given)).toBe(want);
  });
});

describe('stripHtml on constructed input', () => {
  it.each([
    ['user-sized', 5_000],
    ['admin-sized', 100_000],
  ])('leaves no tag in %s nesting, in bounded time', (_name, depth) => {
    const nested = `${'<'.repeat(depth)}${'b>'.repeat(depth)}`;
    const started = performance.now();
    const out = stripHtml(nested);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(out).not.toMatch(/<[A-Za-z/!?]/);
  });

  it('never leaves anything that opens a tag, and stripping again changes nothing (property)', () => {
    const html = fc
      .array(fc.constantFrom('<', '>', '"', "'", 'b', '/', '!', '-', '?', ' ', '=', 'x'), { maxLength: 60 })
      .map((chars) => chars.join(''));
    fc.assert(
      fc.property(html, (text) => {
        const out = stripHtml(text);
        expect(out).not.toMatch(/<[A-Za-z/!?]/);
        expect(stripHtml(out)).toBe(out);
      }),
      { numRuns: 2000 },
    );
  });

  it('undoes a few levels of nesting exactly', () => {
    expect(stripHtml('<<<<i>b>i>script>x')).toBe('x');
  });
});

describe('characters', () => {
  it.each([
    ['empty', '', 0],
    ['ASCII', 'abc', 3],
    ['an emoji (a surrogate pair) is one', '\u{1F600}', 1],
    ['mixed', 'a\u{1F600}b\u{1F600}', 4],
    ['a lone high surrogate counts', '\uD83D', 1],
    ['a reversed pair is two', '\uDE00\uD83D', 2],
    ['accented letters are one each', 'é', 1],
  ])('%s', (_name, given, want) => {
    expect(characters(given)).toBe(want);
  });
});

describe('isValidAttachment', () => {
  it.each([
    ['padded base64', 'aGVsbG8=', true],
    ['two padding characters', 'aGk=', true],
    ['no padding needed', 'QUJD', true],
    ['+ and /', 'ab+/', true],
    ['the empty string (no bytes)', '', true],
    ['missing padding', 'QUJDRA', false],
    ['padding out of place', 'QUJD=', false],
    ['padding inside', 'QQ==QUJD', false],
    ['three padding characters', 'Q===', false],
    ['characters outside the alphabet', 'not base64!', false],
    ['base64url characters', 'ab-_', false],
    ['whitespace', 'aGVs bG8=', false],
  ])('%s: %s', (_name, given, want) => {
    expect(isValidAttachment(given)).toBe(want);
  });

  it('accepts exactly 7,000,000 characters and refuses 7,000,004, without overflowing the stack', () => {
    expect(isValidAttachment('A'.repeat(7_000_000))).toBe(true);
    expect(isValidAttachment('A'.repeat(7_000_004))).toBe(false);
  });
});

/** A state with a user, an admin and one open ticket of the user's. */
function withTicket() {
  const s = testState();
  const user = s.user({ name: 'Owner' });
  const admin = s.user({ admin: true, name: 'Moderator Kim' });
  const open = (owner = user.platformId, description = 'Pending for two days.') => {
    const r = createTicket(s.tx, {
      user: owner,
      subject: 'Stuck',
      description,
      topic: 'trading',
      concern: 'withdrawal',
      now: s.now,
    });
    if (!r.ok) throw new Error(String(r.error));
    return r.value;
  };
  return { s, user, admin, open, ticket: open() };
}

describe('createTicket', () => {
  it('numbers tickets per user and stores the stripped description as the first message', () => {
    const { s, user, admin, open, ticket } = withTicket();
    expect(ticket).toMatchObject({ ticket: 1, status: 0, assigned: null, created: s.now, last_message: s.now });
    expect(open().ticket).toBe(2);
    expect(open(admin.platformId, '<b>Mine</b>').ticket).toBe(1);
    expect(ticketMessages(s.tx, admin.platformId, 1)).toEqual({
      ok: true,
      value: {
        ticket: 1,
        messages: [{ id: 3, user: admin.platformId, content: 'Mine', admin: null, timestamp: s.now, attachments: '' }],
      },
    });
    expect(ticketList(s.tx, user.platformId).map((t) => t.ticket)).toEqual([2, 1]);
  });

  it.each([
    ['a blocked user', { blocked: true }, SUPPORT.blocked],
    ['an empty subject', { subject: ' ' }, SUPPORT.missingCreateParameters],
    ['a description of nothing but tags', { description: '<p> </p>' }, SUPPORT.missingCreateParameters],
    ['an empty topic', { topic: '' }, SUPPORT.missingCreateParameters],
    ['an empty concern', { concern: '' }, SUPPORT.missingCreateParameters],
    ['a description of 10,001 characters', { description: 'x'.repeat(10_001) }, SUPPORT.invalidDescription],
    ['an attachment that is not base64', { attachment: '%%%' }, SUPPORT.invalidAttachment],
  ])('refuses %s and opens nothing', (_name, given, message) => {
    const s = testState();
    const user = s.user();
    const { blocked, ...fields } = given as { blocked?: boolean };
    if (blocked) setSupportBlock(s.tx, user.platformId, 1);
    const input = { user: user.platformId, subject: 'S', description: 'D', topic: 'T', concern: 'C', now: s.now };
    expect(createTicket(s.tx, { ...input, ...fields })).toEqual({ ok: false, error: message });
    expect(s.tx.all('tickets')).toEqual([]);
    expect(s.tx.all('ticketMessages')).toEqual([]);
  });

  it('keeps an attachment as a SHA-256 reference of its bytes', () => {
    const s = testState();
    const user = s.user();
    const input = { user: user.platformId, subject: 'S', description: 'D', topic: 'T', concern: 'C', now: s.now };
    createTicket(s.tx, { ...input, attachment: 'aGVsbG8=' }); // "hello"
    expect(s.tx.all('ticketMessages')[0]!.attachments).toBe(
      'sha256:2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824',
    );
  });
});

describe('postMessage', () => {
  const post = (s: ReturnType<typeof testState>, user: string, content: string, ticket = 1) =>
    postMessage(s.tx, { user, ticket, content, now: s.now + 60 });

  it('accepts 10,000 characters, stores the stripped text and opens the ticket again', () => {
    const { s, user, admin } = withTicket();
    answerTicket(s.tx, { admin: admin.platformId, user: user.platformId, ticket: 1, content: 'Answer', now: s.now });
    expect(post(s, user.platformId, 'a'.repeat(10_000)).ok).toBe(true);
    const result = post(s, user.platformId, '<i>thanks</i>');
    expect(result).toMatchObject({ ok: true, value: { status: 0, last_message: s.now + 60 } });
    const messages = ticketMessages(s.tx, user.platformId, 1);
    expect(messages.ok && messages.value.messages.map((m) => m.content.length)).toEqual([21, 6, 10_000, 6]);
  });

  it('counts characters as the document does: 10,000 emoji are within the limit, 10,001 are not', () => {
    const { s, user } = withTicket();
    const emoji = '\u{1F600}'.repeat(10_000);
    expect(post(s, user.platformId, emoji).ok).toBe(true);
    expect(post(s, user.platformId, `${emoji}\u{1F600}`)).toEqual({ ok: false, error: SUPPORT.invalidContent });
  });

  it.each([
    ['10,001 characters', { content: 'a'.repeat(10_001) }, SUPPORT.invalidContent],
    ['nothing left once stripped', { content: '<b></b>' }, SUPPORT.missingPostParameters],
    ['an invalid attachment', { content: 'hi', attachment: 'QUJDRA' }, SUPPORT.invalidAttachment],
    ["a number the user's tickets do not have", { content: 'hi', ticket: 2 }, SUPPORT.ticketNotFound],
  ])('refuses %s and stores nothing', (_name, given, message) => {
    const { s, user } = withTicket();
    const before = s.tx.all('ticketMessages').length;
    const input: NewMessage = { user: user.platformId, ticket: 1, now: s.now, ...given };
    expect(postMessage(s.tx, input)).toEqual({
      ok: false,
      error: message,
    });
    expect(s.tx.all('ticketMessages')).toHaveLength(before);
  });

  it("does not reach another user's ticket with the same number", () => {
    const { s, admin } = withTicket();
    expect(post(s, admin.platformId, 'hi')).toEqual({ ok: false, error: SUPPORT.ticketNotFound });
    expect(ticketMessages(s.tx, admin.platformId, 1)).toEqual({ ok: false, error: SUPPORT.ticketNotFound });
  });

  it('refuses a closed ticket until it is reopened', () => {
    const { s, user } = withTicket();
    setTicketStatus(s.tx, user.platformId, 1, 2);
    expect(post(s, user.platformId, 'hi')).toEqual({ ok: false, error: SUPPORT.ticketClosed });
    setTicketStatus(s.tx, user.platformId, 1, 1);
    expect(post(s, user.platformId, 'hi').ok).toBe(true);
  });

  it('refuses a blocked user, who can still read, until unblocked', () => {
    const { s, user } = withTicket();
    expect(setSupportBlock(s.tx, user.platformId, 1)).toMatchObject({ ok: true, value: { supportBlocked: true } });
    expect(post(s, user.platformId, 'hi')).toEqual({ ok: false, error: SUPPORT.blocked });
    expect(ticketMessages(s.tx, user.platformId, 1).ok).toBe(true);
    setSupportBlock(s.tx, user.platformId, 0);
    expect(post(s, user.platformId, 'hi').ok).toBe(true);
  });
});

describe('answerTicket', () => {
  it('answers, assigns the first admin, keeps the assignment, and notifies the moderation channel', () => {
    const { s, user, admin } = withTicket();
    const other = s.user({ admin: true, name: 'Second Admin' });
    const answer = (by: string, content: string) =>
      answerTicket(s.tx, { admin: by, user: user.platformId, ticket: 1, content, now: s.now + 5 });
    expect(answer(admin.platformId, 'b'.repeat(200_000))).toMatchObject({
      ok: true,
      value: { status: 1, assigned: admin.platformId, last_message: s.now + 5 },
    });
    expect(answer(other.platformId, '<p>Also</p> here').ok).toBe(true);
    expect(s.tx.effects).toEqual([
      {
        kind: 'moderation',
        notice: 'supportAnswer',
        text: `Moderator Kim answered ticket 1 of ${user.platformId}`,
        data: { ticket: 1, user: user.platformId, admin: admin.platformId, length: 200_000 },
      },
      {
        kind: 'moderation',
        notice: 'supportAnswer',
        text: `Second Admin answered ticket 1 of ${user.platformId}`,
        data: { ticket: 1, user: user.platformId, admin: other.platformId, length: 9 },
      },
    ]);
    const view = adminTicketMessages(s.tx, user.platformId, 1);
    expect(view.ok && view.value.messages.map(({ admin, assigned, status }) => ({ admin, assigned, status }))).toEqual([
      { admin: null, assigned: 'Moderator Kim', status: 'answered' },
      { admin: 'Moderator Kim', assigned: 'Moderator Kim', status: 'answered' },
      { admin: 'Second Admin', assigned: 'Moderator Kim', status: 'answered' },
    ]);
    expect(adminTicketList(s.tx)).toEqual([
      { ticket: 1, user: user.platformId, subject: 'Stuck', status: 1, assigned: 'Moderator Kim' },
    ]);
  });

  it.each([
    ['200,001 characters', { content: 'b'.repeat(200_001) }, SUPPORT.invalidContent],
    ['nothing left once stripped', { content: '<br>' }, SUPPORT.missingAdminContent],
    ['an unknown ticket', { ticket: 9 }, SUPPORT.ticketNotFound],
    ['an unknown user', { user: '76561190000000000' }, SUPPORT.ticketNotFound],
    ['an admin account gone since authentication', { admin: '76561190000000000' }, FORBIDDEN, 403],
  ])('refuses %s, stores nothing and notifies nobody', (_name, given, message, status?: number) => {
    const { s, user, admin } = withTicket();
    const input = { admin: admin.platformId, user: user.platformId, ticket: 1, content: 'ok', now: s.now, ...given };
    expect(answerTicket(s.tx, input)).toEqual(
      status === undefined ? { ok: false, error: message } : { ok: false, error: message, status },
    );
    expect(s.tx.all('ticketMessages')).toHaveLength(1);
    expect(s.tx.effects).toEqual([]);
  });

  it('refuses a closed ticket', () => {
    const { s, user, admin } = withTicket();
    setTicketStatus(s.tx, user.platformId, 1, 2);
    const input = { admin: admin.platformId, user: user.platformId, ticket: 1, content: 'late', now: s.now };
    expect(answerTicket(s.tx, input)).toEqual({ ok: false, error: SUPPORT.ticketClosed });
    const view = adminTicketMessages(s.tx, user.platformId, 1);
    expect(view.ok && view.value.messages[0]!.status).toBe('closed');
  });
});

describe('answer notifications', () => {
  it('tells the owner through an unread `message` notification, which reading the ticket marks read', () => {
    const { s, user, admin, open } = withTicket();
    open();
    const answer = (ticket: number) =>
      answerTicket(s.tx, { admin: admin.platformId, user: user.platformId, ticket, content: 'Hi', now: s.now });
    answer(1);
    answer(2);
    const unread = () =>
      s.tx
        .all('notifications')
        .filter((n) => n.user === user.platformId && n.kind === 'message' && !n.read)
        .map((n) => [n.text, n.data]);
    expect(unread()).toEqual([
      ['Moderator Kim answered your support ticket 1', { ticket: 1, subject: 'Stuck' }],
      ['Moderator Kim answered your support ticket 2', { ticket: 1 + 1, subject: 'Stuck' }],
    ]);
    ticketMessages(s.tx, user.platformId, 2);
    expect(unread().map(([, data]) => data)).toEqual([{ ticket: 1, subject: 'Stuck' }]);
    adminTicketMessages(s.tx, user.platformId, 1);
    expect(unread()).toHaveLength(1); // an admin reading does not read for the user
  });

  it('does not notify an admin answering their own ticket', () => {
    const { s, admin, open } = withTicket();
    open(admin.platformId);
    answerTicket(s.tx, { admin: admin.platformId, user: admin.platformId, ticket: 1, content: 'Note', now: s.now });
    expect(s.tx.all('notifications')).toEqual([]);
  });
});

describe('adminTicketList', () => {
  it("lists everyone's tickets, most recent activity first, before and after the commit", () => {
    const s = testState();
    const [a, b] = [s.user(), s.user()];
    const admin = s.user({ admin: true, name: 'Moderator Kim' });
    const open = (user: string, subject: string, now: number) =>
      createTicket(s.tx, { user, subject, description: 'd', topic: 't', concern: 'c', now });
    open(a.platformId, 'first', 100);
    open(b.platformId, 'second', 200);
    open(a.platformId, 'third', 300);
    open(b.platformId, 'fourth', 300); // the same second: the later ticket first
    postMessage(s.tx, { user: a.platformId, ticket: 1, content: 'Again', now: 400 });
    answerTicket(s.tx, { admin: admin.platformId, user: b.platformId, ticket: 1, content: 'Done', now: 500 });
    const want = [
      { ticket: 1, user: b.platformId, subject: 'second', status: 1, assigned: 'Moderator Kim' },
      { ticket: 1, user: a.platformId, subject: 'first', status: 0, assigned: null },
      { ticket: 2, user: b.platformId, subject: 'fourth', status: 0, assigned: null },
      { ticket: 2, user: a.platformId, subject: 'third', status: 0, assigned: null },
    ];
    expect(adminTicketList(s.tx)).toEqual(want);
    s.tx.commit();
    expect(adminTicketList(new Tx(s.tx.state))).toEqual(want);
  });
});

describe('setTicketStatus and setSupportBlock', () => {
  it.each([
    [-1, SUPPORT.invalidTicketStatus],
    [3, SUPPORT.invalidTicketStatus],
    [1.5, SUPPORT.invalidTicketStatus],
  ])('refuses status %s', (status, message) => {
    const { s, user } = withTicket();
    expect(setTicketStatus(s.tx, user.platformId, 1, status)).toEqual({ ok: false, error: message });
  });

  it.each([
    [2, '76561190000000001', ADMIN.invalidBlockStatus],
    [1, '76561190000000000', SUPPORT.invalidUser],
  ])('refuses block status %s for %s', (status, user, message) => {
    const s = testState();
    s.user({ platformId: '76561190000000001' });
    expect(setSupportBlock(s.tx, user, status)).toEqual({ ok: false, error: message });
  });
});

describe('conversations', () => {
  it('is a taken ticket, seen by the owner with the admin and by the admin with the owner, with unread counts', () => {
    const { s, user, admin, open } = withTicket();
    open(); // never answered: no conversation
    expect(conversations(s.tx, user.platformId)).toEqual([]);
    const answer = (content: string, now: number) =>
      answerTicket(s.tx, { admin: admin.platformId, user: user.platformId, ticket: 1, content, now });
    answer('One', s.now + 10);
    answer('Two', s.now + 20);
    expect(conversations(s.tx, user.platformId)).toEqual([
      {
        id: 1,
        with: { platformId: admin.platformId, name: 'Moderator Kim', image: admin.image },
        lastMessage: 'Two',
        timestamp: s.now + 20,
        unread: 2,
      },
    ]);
    expect(conversations(s.tx, admin.platformId)).toMatchObject([
      { id: 1, with: { platformId: user.platformId, name: 'Owner' }, lastMessage: 'Two', unread: 0 },
    ]);
    postMessage(s.tx, { user: user.platformId, ticket: 1, content: 'Thanks', now: s.now + 30 });
    expect(conversations(s.tx, user.platformId)).toMatchObject([{ lastMessage: 'Thanks', unread: 0 }]);
    expect(conversations(s.tx, admin.platformId)).toMatchObject([{ lastMessage: 'Thanks', unread: 1 }]);
    const stranger = s.user();
    expect(conversations(s.tx, stranger.platformId)).toEqual([]);
  });
});
