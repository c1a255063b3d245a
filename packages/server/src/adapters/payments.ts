// The payment providers `provider_a` and `provider_b` (seed: Cashout). A cashout is submitted to
// its provider and moves pending -> processing -> completed or failed as the provider reports.
// The simulator accepts every submission and waits for POST /test_helpers/payments/{cashoutId},
// which reports the provider's outcome here and then applies it to the cashout record.
import type { PayoutMethod } from '../domain/money.ts';

export type Provider = PayoutMethod;
export type PaymentStatus = 'pending' | 'processing' | 'completed' | 'failed';
export type PaymentOutcome = Exclude<PaymentStatus, 'pending'>;

export interface Submission {
  provider: Provider;
  amount: number;
  email: string;
  transactionId: string;
  status: PaymentStatus;
}

export interface Payments {
  /** Hands a cashout to its provider; returns the provider's transaction ID. */
  submit(cashoutId: number, provider: Provider, amount: number, email: string): string;
}

// Seed "States and transitions": processing follows pending; completed and failed are final.
const NEXT: Record<PaymentStatus, PaymentOutcome[]> = {
  pending: ['processing', 'completed', 'failed'],
  processing: ['completed', 'failed'],
  completed: [],
  failed: [],
};

export class PaymentsSimulator implements Payments {
  #submitted = new Map<number, Submission>();

  submit(cashoutId: number, provider: Provider, amount: number, email: string): string {
    const transactionId = `${provider === 'provider_a' ? 'PA' : 'PB'}-${cashoutId.toString().padStart(8, '0')}`;
    this.#submitted.set(cashoutId, { provider, amount, email, transactionId, status: 'pending' });
    return transactionId;
  }

  submitted(cashoutId: number): Submission | undefined {
    const found = this.#submitted.get(cashoutId);
    return found && { ...found };
  }

  /** Records what the provider reports; undefined for an unknown cashout or a move out of a final state. */
  report(cashoutId: number, outcome: PaymentOutcome): Submission | undefined {
    const found = this.#submitted.get(cashoutId);
    if (!found || !NEXT[found.status].includes(outcome)) return undefined;
    found.status = outcome;
    return { ...found };
  }

  clear(): void {
    this.#submitted.clear();
  }
}
