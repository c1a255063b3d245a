// E-mails as the suite reads them. The seed ("Events") names six kinds, each switchable per user,
// and a master switch for all of them, and leaves open which operation sends which kind ("Which
// operation triggers which e-mail kind ... not shown"). The helper contract gives every outbox
// message a `kind` without naming its values, so the suite never reads `kind`: it counts the
// e-mails to an address and tells a kind by its switch. And it demands only what the kinds' names
// settle, never the reference's own mapping (MailNotifications' "Reference server - ..."), since a
// target may read an open point otherwise and every reading must pass:
// - a kind whose name settles its event (a completed deposit: depositCompleted; a sale: itemSold to
//   the seller; a filled order: buyOrderFilled to its owner): with every kind on at least one
//   e-mail, with that kind off strictly fewer. Not "exactly one", not "of no other kind": a deposit
//   is a trade that completed too, and may send tradeCompleted beside depositCompleted;
// - a kind whose name leaves its events open (tradeCompleted: which trades; offerReceived: which
//   bot offers): switching it off lowers the count of at least one of the events it could name;
// - marketing: nothing (no operation of the seed is marketing);
// - the master switch off: none of these events sends an e-mail.
// Neither the seed nor the document states a default for any switch, so every check sets the
// switches it relies on, the master switch included.
import type { Schema } from '@marketplace/types';
import { helpers, session } from './helpers.ts';
import { type Answer, assertThat, setUpOk } from './http.ts';
import { postAs } from './user-calls.ts';

type Me = Awaited<ReturnType<typeof session>>;
/** A user with an e-mail address of its own (the outbox is read by address). */
export type Party = Me & { address: string };
export type MailKind = keyof Schema<'MailNotifications'>;

/** Every per-kind switch of the seed's "Events" on (the document's MailNotifications, all its keys). */
const ALL_ON: Record<MailKind, boolean> = {
  tradeCompleted: true,
  offerReceived: true,
  buyOrderFilled: true,
  itemSold: true,
  depositCompleted: true,
  marketing: true,
};

/** The e-mails sent to `to` so far, whatever their kind (cashout e-mails too: "e-mails at each stage"). */
export const mailsTo = async (to: string): Promise<number> =>
  (await helpers.outbox('email', to)).filter((m) => m.to === to).length;

/** How `me`'s e-mail is switched for an event: every kind on but `off`, the master switch on unless `master` is false. */
export interface Switches {
  off?: MailKind | undefined;
  master?: boolean;
}

/** Sets every e-mail switch of `me`: the kinds first, then the master switch (no default is stated for either). */
export async function switchMail(me: Me, { off, master = true }: Switches = {}): Promise<void> {
  const notifications = off ? { ...ALL_ON, [off]: false } : ALL_ON;
  setUpOk(await postAs(me, '/user/setMailNotification', { notifications }));
  setUpOk(await postAs(me, '/user/setMailNotificationStatus', { enabled: master }));
}

/** How many e-mails `event` sends to each of `addresses`. */
export async function mailsSentBy(addresses: readonly string[], event: () => Promise<unknown>): Promise<number[]> {
  const before = await Promise.all(addresses.map(mailsTo));
  await event();
  return Promise.all(addresses.map(async (a, i) => (await mailsTo(a)) - before[i]!));
}

/** A new user (a `session`) with its own e-mail address. */
export const party = async (address: string, balance = 0): Promise<Party> => ({
  ...(await session({ email: address, balance })),
  address,
});

/**
 * Switches each party's e-mail as given, runs `event` (which answers the exchange a failure is
 * pinned on) and gives the e-mails it sent to each party.
 */
export async function mailsOfEvent(
  parties: [Party, Switches][],
  event: () => Promise<Answer>,
): Promise<{ answer: Answer; sent: number[] }> {
  for (const [p, switches] of parties) await switchMail(p, switches);
  let answer: Answer | undefined;
  const sent = await mailsSentBy(
    parties.map(([p]) => p.address),
    async () => {
      answer = await event();
    },
  );
  return { answer: answer!, sent };
}

/**
 * Fails unless `kind`, which its name settles for the event, is sent: `on` e-mails with every kind
 * on (at least one) and `off` with that kind off and every other on (strictly fewer).
 */
export function assertKindSent(a: Answer, what: string, kind: MailKind, on: number, off: number): void {
  assertThat(
    a,
    on >= 1 && off < on,
    `${what}: at least one e-mail with every kind on, fewer with ${kind} off and every other kind on (got ${on}, then ${off})`,
  );
}

/**
 * Fails unless switching `kind` off (every other kind on) lowers the e-mails of at least one of the
 * events its name could mean: `events` gives each with its count with every kind on and with `kind` off.
 */
export function assertKindInFlow(a: Answer, kind: MailKind, events: { what: string; on: number; off: number }[]): void {
  assertThat(
    a,
    events.some((e) => e.off < e.on),
    `${kind} is sent for one of these at least: switching it off sends fewer e-mails for it (got ${events
      .map((e) => `${e.what}: ${e.on}, then ${e.off}`)
      .join('; ')})`,
  );
}
