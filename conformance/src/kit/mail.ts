// E-mails as the suite reads them. The seed ("Events") names six kinds, each switchable per user,
// and the helper contract gives every outbox message a `kind` without naming its values: a target
// may call its kinds anything. So the suite never reads `kind`. It counts the e-mails to an
// address, and tells which kind an event sends by that kind's switch (POST
// /user/setMailNotification): with it off the event sends nothing, with it on one e-mail.
import type { Schema } from '@marketplace/types';
import { helpers, session } from './helpers.ts';
import { type Answer, assertValue, setUpOk } from './http.ts';
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

/** Switches every e-mail kind of `me` on, but `off` (set off). */
export async function switchMailOn(me: Me, off?: MailKind): Promise<void> {
  const notifications = off ? { ...ALL_ON, [off]: false } : ALL_ON;
  setUpOk(await postAs(me, '/user/setMailNotification', { notifications }));
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
 * Runs `event` with every e-mail kind of its parties switched on, but, when `quiet`, each party's
 * kind given here switched off, and fails unless it sends each party one e-mail, or none when
 * quiet: both runs together show the event sends one e-mail, of that kind and of no other.
 * `event` answers the exchange a failure is told on.
 */
export async function assertMailOfKind(
  what: string,
  parties: [Party, MailKind][],
  quiet: boolean,
  event: () => Promise<Answer>,
): Promise<Answer> {
  for (const [p, kind] of parties) await switchMailOn(p, quiet ? kind : undefined);
  let answer: Answer | undefined;
  const sent = await mailsSentBy(
    parties.map(([p]) => p.address),
    async () => {
      answer = await event();
    },
  );
  const kinds = parties.map(([p, kind]) => `${kind} to ${p.address}`).join(', ');
  assertValue(
    answer!,
    sent,
    parties.map(() => (quiet ? 0 : 1)),
    quiet
      ? `${what}, with ${kinds} off and every other kind on: no e-mail`
      : `${what}, every kind on: one e-mail each (${kinds})`,
  );
  return answer!;
}
