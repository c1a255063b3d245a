// Support tickets and messages (seed: "Support and messages", envelope B). Required fields, the
// length limits and the attachment's form are validated from the document before a handler runs;
// the engine (domain/support.ts) applies the rules.
import {
  adminTicketList,
  adminTicketMessages,
  answerTicket,
  conversations,
  createTicket,
  postMessage,
  setSupportBlock,
  setTicketStatus,
  ticketList,
  ticketMessages,
} from '../domain/support.ts';
import { ok } from '../domain/tx.ts';
import { type AreaRoutes, type BaseCtx, callerOf } from '../http/context.ts';

const me = (ctx: BaseCtx) => callerOf(ctx).user.platformId;
/** An optional attachment: absent and '' are both none. */
const attachment = (body: { attachment?: string }): string | undefined => body.attachment || undefined;
const sent = (ticket: number) => ({ message: 'Message sent', ticket });

export const supportRoutes = {
  getSupportList(ctx) {
    return ok({ list: ctx.read((tx) => ticketList(tx, me(ctx))) });
  },

  getSupportMessagesTicket(ctx) {
    return ctx.run((tx) => ticketMessages(tx, me(ctx), ctx.params.ticket));
  },

  async postSupportCreate(ctx) {
    const { subject, description, topic, concern } = ctx.body;
    const input = {
      user: me(ctx),
      subject,
      description,
      topic,
      concern,
      attachment: attachment(ctx.body),
      now: ctx.now,
    };
    const result = await ctx.run((tx) => createTicket(tx, input));
    return result.ok ? ok({ ticket: result.value.ticket, message: 'Ticket created' }) : result;
  },

  async postSupportPost(ctx) {
    const input = {
      user: me(ctx),
      ticket: ctx.body.ticket,
      content: ctx.body.content,
      attachment: attachment(ctx.body),
      now: ctx.now,
    };
    const result = await ctx.run((tx) => postMessage(tx, input));
    return result.ok ? ok(sent(result.value.ticket)) : result;
  },

  getMessagesList(ctx) {
    return ok({ list: ctx.read((tx) => conversations(tx, me(ctx))) });
  },

  getAdminSupportList(ctx) {
    return ok({ list: ctx.read(adminTicketList) });
  },

  getAdminSupportMessagesTicketUser(ctx) {
    return ctx.read((tx) => adminTicketMessages(tx, ctx.params.user, ctx.params.ticket));
  },

  async postAdminSupportPost(ctx) {
    const { content, ticket, user } = ctx.body;
    const result = await ctx.run((tx) => answerTicket(tx, { admin: me(ctx), user, ticket, content, now: ctx.now }));
    return result.ok ? ok(sent(result.value.ticket)) : result;
  },

  async postAdminSupportStatus(ctx) {
    const { ticket, status, user } = ctx.body;
    const result = await ctx.run((tx) => setTicketStatus(tx, user, ticket, status));
    return result.ok
      ? ok({ message: 'Ticket status updated', ticket: result.value.ticket, status: result.value.status })
      : result;
  },

  async postAdminSupportBlock(ctx) {
    const { user, status } = ctx.body;
    const result = await ctx.run((tx) => setSupportBlock(tx, user, status));
    const message = status === 1 ? 'User blocked from support' : 'User unblocked from support';
    return result.ok ? ok({ message, user, status }) : result;
  },
} satisfies AreaRoutes;
