// The payment providers `provider_a` and `provider_b` (seed: Cashout). A cashout is submitted to
// its provider and moves pending -> processing -> completed or failed as the provider reports.
// The simulator accepts every submission and waits for POST /test_helpers/payments/{cashoutId}.

export type Provider = 'provider_a' | 'provider_b';
export type PaymentStatus = 'pending' | 'processing' | 'completed' | 'failed';

export interface Payments {
  /** Hands a cashout to its provider; returns the provider's transaction ID. */
  submit(cashoutId: number, provider: Provider, amount: number, email: string): string;
}

export class PaymentsSimulator implements Payments {
  #submitted = new Map<number, { provider: Provider; amount: number; email: string; transactionId: string }>();

  submit(cashoutId: number, provider: Provider, amount: number, email: string): string {
    const transactionId = `${provider === 'provider_a' ? 'PA' : 'PB'}-${cashoutId.toString().padStart(8, '0')}`;
    this.#submitted.set(cashoutId, { provider, amount, email, transactionId });
    return transactionId;
  }

  submitted(cashoutId: number) {
    return this.#submitted.get(cashoutId);
  }

  clear(): void {
    this.#submitted.clear();
  }
}
