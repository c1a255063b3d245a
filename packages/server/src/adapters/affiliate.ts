// The affiliate tracking service (seed: POST /user/setAffiliates registers a click with it). The
// simulator records clicks in the outbox (channel `affiliate`).
import type { Outbox } from './outbox.ts';

export interface Affiliates {
  click(code: string, user: string | undefined, ip: string, now: number): void;
}

export function outboxAffiliates(outbox: Outbox): Affiliates {
  return {
    click: (code, user, ip, now) => {
      outbox.add({
        channel: 'affiliate',
        to: code,
        kind: 'click',
        subject: 'Affiliate click',
        body: `Click on ${code}`,
        data: { code, user: user ?? null, ip },
        timestamp: now,
      });
    },
  };
}
