// E-mail change (seed: "E-mail change", Limits "1 request per 5 minutes; code valid 24 hours"):
// a code goes to the new address; the right code within 24 hours makes it the account's address
// and ends every other session of the user. The route carries the 2FA filter (http/authenticate.ts).

import { joinCode, openCodeRequest, pendingRequests, redeemCode } from './codes.ts';
import { CODES, EMAIL_CHANGE } from './messages.ts';
import { mailService } from './notify.ts';
import type { CodeRequest } from './records.ts';
import { disconnectOthers } from './sessions.ts';
import { fail, ok, type Tx } from './tx.ts';

/** Seed Limits: 1 request per 5 minutes per user. */
export const EMAIL_CHANGE_INTERVAL = 300;

const sameAddress = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Asks to change the account e-mail: stores the request and mails `code` to the new address. */
export function requestEmailChange(
  tx: Tx,
  input: { user: string; email: string; code: string; codeKey: string; now: number },
) {
  const last = tx
    .find('codesByUser', input.user)
    .filter((r) => r.purpose === 'emailChange')
    .reduce<CodeRequest | undefined>((a, r) => (a && a.created >= r.created ? a : r), undefined);
  if (last && input.now - last.created < EMAIL_CHANGE_INTERVAL) return fail(EMAIL_CHANGE.tooManyRequests);
  const email = input.email.trim();
  if (email !== '' && tx.find('usersByEmail', email.toLowerCase()).some((u) => sameAddress(u.email, email)))
    return fail(EMAIL_CHANGE.emailInUse);
  openCodeRequest(tx, { ...input, purpose: 'emailChange', email });
  mailService(tx, input.user, 'emailChange', {
    to: email,
    subject: 'Confirm your new e-mail address',
    body: `Your verification code is ${input.code}. It is valid for 24 hours.`,
    data: { code: input.code },
  });
  return ok(EMAIL_CHANGE.requested);
}

/** Confirms the pending change with its code; every session but `session` ends. */
export function validateEmailChange(
  tx: Tx,
  input: { user: string; session: number; code: string | string[]; codeKey: string; now: number },
) {
  const request = pendingRequests(tx, input.user, 'emailChange')[0];
  if (!request) return fail(CODES.requestNotFound);
  const redeemed = redeemCode(tx, request, { ...input, code: joinCode(input.code) });
  if (!redeemed.ok) return redeemed;
  const user = tx.get('users', input.user)!;
  tx.put('users', input.user, { ...user, email: request.email });
  disconnectOthers(tx, input.user, input.session);
  return ok(EMAIL_CHANGE.validated);
}
