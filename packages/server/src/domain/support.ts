// Support tickets (seed: "Support and messages", "Support ticket", "Messages by endpoint", Limits
// "Support message max 10,000 characters (admin 200,000)"). The length limits, empty fields and
// the attachment's base64 form are checked from the document before a command runs; the commands
// check them again (the engine does not trust its caller) and apply the rules: ticket numbers
// count per user, status 0 open / 1 answered / 2 closed (the document's design), a closed ticket
// takes no message, a user blocked from support may read but not write.
import { createHash } from 'node:crypto';
import { latestActivity } from './indexes.ts';
import { ADMIN, FORBIDDEN, SUPPORT } from './messages.ts';
import { addNotification } from './notify.ts';
import type { Ticket, TicketMessage } from './records.ts';
import type { User } from './state.ts';
import { fail, ok, type Tx } from './tx.ts';

/** Limits: support message max 10,000 characters (admin 200,000), counted as sent, before stripping. */
export const USER_MESSAGE_MAX = 10_000;
export const ADMIN_MESSAGE_MAX = 200_000;
/** The document: an attachment is a base64 string of at most 7,000,000 characters. */
export const ATTACHMENT_MAX_CHARS = 7_000_000;

/** The document's status codes and their text in the admin views. */
export const TICKET_STATUS = { open: 0, answered: 1, closed: 2 } as const;
const STATUS_TEXT = ['open', 'answered', 'closed'] as const;

// A comment (up to `-->`, or the end), else a tag: `<` then a letter, `/`, `!` or `?`, up to the
// first `>` outside quotes, or the end of the text (an unfinished tag, or an unclosed quote in
// one, is dropped to the end rather than left half).
const TAG = /<!--[\s\S]*?(?:-->|$)|<[A-Za-z/!?](?:"[^"]*(?:"|$)|'[^']*(?:'|$)|[^"'>])*(?:>|$)/g;

/**
 * What could still open a tag or a comment once stripping stops: the whole run of `<` before it,
 * since dropping only the last `<` of `<<b` would leave the next one in front of the `b`.
 */
const OPENERS = /<+(?=[A-Za-z/!?])/g;
/** Real text needs one or two passes; only a constructed one nests deeper. */
const MAX_PASSES = 8;

/**
 * Seed: "HTML tags stripped". Precisely: tags and comments are removed, the text between them is
 * kept (`<b>Hi</b>` is `Hi`, the text of a `<script>` stays as plain text), and a `<` that cannot
 * open a tag (`1 < 2`, `<3`) is text. Entities are kept as sent, not decoded: decoding would turn
 * `&lt;b&gt;` into a tag after stripping. Stripping repeats, so a tag split by another
 * (`<<b>script>`) does not come back together; each pass can undo one level of such nesting, so
 * after MAX_PASSES (a bound on the work: 100,000 levels would take as many passes) every `<` that
 * would still open a tag is dropped. The result never contains a tag. Nothing is trimmed. Like
 * PHP's strip_tags, a tag with no `>` runs to the end (`a<b then` keeps `a`): left in place, it
 * would close on whatever markup a page puts after the message.
 */
export function stripHtml(text: string): string {
  let current = text;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const next = current.replace(TAG, '');
    if (next === current) return current;
    current = next;
  }
  return current.replace(OPENERS, '');
}

/**
 * Characters as the document's `maxLength` counts them (JSON Schema: code points), so the engine
 * and the request validator agree on 10,000: an emoji is one character, not two UTF-16 units.
 */
export function characters(text: string): number {
  let pairs = 0;
  for (let i = 0; i < text.length - 1; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        pairs++;
        i++;
      }
    }
  }
  return text.length - pairs;
}

// The alphabet, then at most two `=`; with a length that is a multiple of 4 this is exactly
// padded standard base64. Not `(?:[A-Za-z0-9+/]{4})*`: a repeated group recurses once per group
// in V8 and overflows the stack on a few megabytes (a 500 for a valid 7,000,000-character file).
const BASE64_CHARS = /^[A-Za-z0-9+/]*={0,2}$/;

/** Standard padded base64 within the size limit (the document's SupportPostRequest `attachment`). */
export const isValidAttachment = (encoded: string): boolean =>
  encoded.length <= ATTACHMENT_MAX_CHARS && encoded.length % 4 === 0 && BASE64_CHARS.test(encoded);

/**
 * What a message keeps of an attachment: a reference to its bytes (`sha256:<hex>`), '' for none.
 * No operation serves attachments back, so the reference server does not store their bytes.
 */
const attachmentRef = (encoded: string | undefined): string =>
  encoded ? `sha256:${createHash('sha256').update(Buffer.from(encoded, 'base64')).digest('hex')}` : '';

/** The user's ticket with this number, if any. */
export const ticketOf = (tx: Tx, user: string, ticket: number): Ticket | undefined =>
  tx.find('ticketsByUser', user).find((t) => t.ticket === ticket);

const messagesOf = (tx: Tx, ticket: Ticket): TicketMessage[] =>
  tx.find('messagesByTicket', String(ticket.id)).sort((a, b) => a.id - b.id);

function addMessage(
  tx: Tx,
  ticket: Ticket,
  text: string,
  admin: User | null,
  attachment: string | undefined,
  now: number,
) {
  const id = tx.nextId('ticketMessages');
  tx.put('ticketMessages', id, {
    id,
    ticket: ticket.id,
    user: ticket.user,
    content: text,
    admin: admin ? admin.name : null,
    timestamp: now,
    attachments: attachmentRef(attachment),
  });
}

/**
 * What every write of a user checks: not blocked from support (the account is read, not trusted),
 * at most 10,000 characters as sent, a valid attachment. The text to store, stripped, or why not.
 */
function userText<M extends string>(tx: Tx, user: string, sent: string, attachment: string | undefined, tooLong: M) {
  if (tx.get('users', user)?.supportBlocked ?? true) return fail(SUPPORT.blocked);
  if (characters(sent) > USER_MESSAGE_MAX) return fail(tooLong);
  if (attachment !== undefined && !isValidAttachment(attachment)) return fail(SUPPORT.invalidAttachment);
  return ok(stripHtml(sent));
}

export interface NewTicket {
  user: string;
  subject: string;
  description: string;
  topic: string;
  concern: string;
  attachment?: string;
  now: number;
}

/**
 * Opens a ticket; its description is the first message (seed: POST /support/create). Subject,
 * topic and concern are kept as sent: the seed strips HTML from message text only.
 */
export function createTicket(tx: Tx, input: NewTicket) {
  const description = userText(tx, input.user, input.description, input.attachment, SUPPORT.invalidDescription);
  if (!description.ok) return description;
  if ([input.subject, description.value, input.topic, input.concern].some((f) => f.trim() === ''))
    return fail(SUPPORT.missingCreateParameters);
  const own = tx.find('ticketsByUser', input.user);
  const id = tx.nextId('tickets');
  const ticket: Ticket = {
    id,
    ticket: Math.max(0, ...own.map((t) => t.ticket)) + 1,
    user: input.user,
    subject: input.subject,
    topic: input.topic,
    concern: input.concern,
    status: TICKET_STATUS.open,
    assigned: null,
    created: input.now,
    last_message: input.now,
  };
  tx.put('tickets', id, ticket);
  addMessage(tx, ticket, description.value, null, input.attachment, input.now);
  return ok(ticket);
}

export interface NewMessage {
  user: string;
  ticket: number;
  content: string;
  attachment?: string;
  now: number;
}

/** The user writes on one of their tickets, which makes it open again (seed: POST /support/post). */
export function postMessage(tx: Tx, input: NewMessage) {
  const text = userText(tx, input.user, input.content, input.attachment, SUPPORT.invalidContent);
  if (!text.ok) return text;
  if (text.value.trim() === '') return fail(SUPPORT.missingPostParameters);
  const ticket = ticketOf(tx, input.user, input.ticket);
  if (!ticket) return fail(SUPPORT.ticketNotFound);
  if (ticket.status === TICKET_STATUS.closed) return fail(SUPPORT.ticketClosed);
  addMessage(tx, ticket, text.value, null, input.attachment, input.now);
  return ok(tx.put('tickets', ticket.id, { ...ticket, status: TICKET_STATUS.open, last_message: input.now }));
}

export interface AdminMessage {
  admin: string;
  user: string;
  ticket: number;
  content: string;
  now: number;
}

/**
 * An administrator answers a user's ticket: it becomes answered and, when unassigned, theirs; the
 * moderation channel is told (seed: Events). The text is stripped like a user's, since users read
 * it through the same messages (the document: SupportMessage content has its tags stripped).
 */
export function answerTicket(tx: Tx, input: AdminMessage) {
  const admin = tx.get('users', input.admin);
  const text = stripHtml(input.content);
  // The caller was authenticated as this admin; an account gone since (a reset in between) is a
  // caller the service no longer knows: 403 as for any such token (POST /admin/support/post
  // documents no "Admin user not found").
  if (!admin) return fail(FORBIDDEN, 403);
  if (text.trim() === '') return fail(SUPPORT.missingAdminContent);
  if (characters(input.content) > ADMIN_MESSAGE_MAX) return fail(SUPPORT.invalidContent);
  const ticket = ticketOf(tx, input.user, input.ticket);
  if (!ticket) return fail(SUPPORT.ticketNotFound);
  if (ticket.status === TICKET_STATUS.closed) return fail(SUPPORT.ticketClosed);
  addMessage(tx, ticket, text, admin, undefined, input.now);
  tx.emit({
    kind: 'moderation',
    notice: 'supportAnswer',
    text: `${admin.name} answered ticket ${ticket.ticket} of ${ticket.user}`,
    data: { ticket: ticket.ticket, user: ticket.user, admin: admin.platformId, length: text.length },
  });
  // Seed Events: unread messages are readable through GET /user/notifications (and counted in
  // GET /user/infos `message`); reading the ticket marks them read.
  if (ticket.user !== admin.platformId)
    addNotification(
      tx,
      ticket.user,
      'message',
      `${admin.name} answered your support ticket ${ticket.ticket}`,
      { ticket: ticket.ticket, subject: ticket.subject },
      input.now,
    );
  const assigned = ticket.assigned ?? admin.platformId;
  return ok(
    tx.put('tickets', ticket.id, { ...ticket, status: TICKET_STATUS.answered, assigned, last_message: input.now }),
  );
}

/** Sets a ticket's status; 2 closes it, 0 or 1 reopens it (seed: POST /admin/support/status). */
export function setTicketStatus(tx: Tx, user: string, number: number, status: number) {
  if (!isTicketStatus(status)) return fail(SUPPORT.invalidTicketStatus);
  const ticket = ticketOf(tx, user, number);
  if (!ticket) return fail(SUPPORT.ticketNotFound);
  return ok(tx.put('tickets', ticket.id, { ...ticket, status }));
}

const isTicketStatus = (status: number): status is Ticket['status'] => status === 0 || status === 1 || status === 2;

/** Blocks (1) or unblocks (0) a user from writing to support (seed: POST /admin/support/block). */
export function setSupportBlock(tx: Tx, user: string, status: number) {
  if (status !== 0 && status !== 1) return fail(ADMIN.invalidBlockStatus);
  const account = tx.get('users', user);
  if (!account) return fail(SUPPORT.invalidUser);
  return ok(tx.put('users', user, { ...account, supportBlocked: status === 1 }));
}

/** The caller's tickets as list rows, most recent activity first (seed: GET /support/list). */
export const ticketList = (tx: Tx, user: string) =>
  tx
    .find('ticketsByUser', user)
    .sort(latestActivity)
    .map(({ ticket, subject, topic, concern, status, last_message, created }) => ({
      ticket,
      subject,
      topic,
      concern,
      status,
      last_message,
      created,
    }));

const messageView = ({ id, user, content, admin, timestamp, attachments }: TicketMessage) => ({
  id,
  user,
  content,
  admin,
  timestamp,
  attachments,
});

/**
 * The messages of one of the user's tickets, oldest first (seed: GET /support/messages/{ticket});
 * reading them marks the ticket's answer notifications read (a write: run it as a command).
 */
export function ticketMessages(tx: Tx, user: string, number: number) {
  const ticket = ticketOf(tx, user, number);
  if (!ticket) return fail(SUPPORT.ticketNotFound);
  for (const n of tx.find('notificationsByUser', user))
    if (n.kind === 'message' && !n.read && n.data.ticket === ticket.ticket)
      tx.put('notifications', n.id, { ...n, read: true });
  return ok({ messages: messagesOf(tx, ticket).map(messageView), ticket: ticket.ticket });
}

const nameOf = (tx: Tx, platformId: string | null): string | null =>
  platformId === null ? null : (tx.get('users', platformId)?.name ?? null);

/**
 * Every ticket, most recent activity first (seed: GET /admin/support/list, admin list row): a walk
 * of the tickets' activity index, so the list costs the tickets it returns, with no sort.
 */
export const adminTicketList = (tx: Tx) =>
  [...tx.ordered('ticketsByActivity', '')].map((t) => ({
    ticket: t.ticket,
    user: t.user,
    subject: t.subject,
    status: t.status,
    assigned: nameOf(tx, t.assigned),
  }));

/** A user's ticket as administrators read it: each message with `assigned` and the status as text. */
export function adminTicketMessages(tx: Tx, user: string, number: number) {
  const ticket = ticketOf(tx, user, number);
  if (!ticket) return fail(SUPPORT.ticketNotFound);
  const assigned = nameOf(tx, ticket.assigned);
  const status = STATUS_TEXT[ticket.status] ?? 'open';
  return ok({
    messages: messagesOf(tx, ticket).map((m) => ({ ...messageView(m), assigned, status })),
    ticket: ticket.ticket,
  });
}

/**
 * GET /messages/list (the document's Conversation; the seed shows no body). The only messages
 * between people here are ticket messages, so a conversation is a ticket an administrator has
 * taken (assigned): the owner sees it with that administrator, the administrator with the owner.
 * `unread` counts the other side's messages after the caller's own last one: the seed shows no
 * read receipts, and answering is what shows a message was read.
 */
export function conversations(tx: Tx, caller: string) {
  // The caller's own tickets and those assigned to them (each once), and only their messages.
  const tickets = new Set([...tx.find('ticketsByUser', caller), ...tx.find('ticketsByAssignee', caller)]);
  const out = [];
  for (const t of [...tickets].sort(latestActivity)) {
    if (t.assigned === null || (t.user !== caller && t.assigned !== caller) || t.user === t.assigned) continue;
    const asOwner = t.user === caller;
    const other = tx.get('users', asOwner ? t.assigned : t.user);
    const messages = messagesOf(tx, t);
    const last = messages.at(-1);
    if (!other || !last) continue;
    const mine = (m: TicketMessage) => (m.admin === null) === asOwner;
    const lastOwn = messages.findLastIndex(mine);
    out.push({
      id: t.id,
      with: { platformId: other.platformId, name: other.name, image: other.image },
      lastMessage: last.content,
      timestamp: last.timestamp,
      unread: messages.slice(lastOwn + 1).filter((m) => !mine(m)).length,
    });
  }
  return out;
}
