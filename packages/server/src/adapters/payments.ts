// The payment providers `provider_a` and `provider_b` (seed: Cashout). A cashout is submitted to
// its provider and moves pending -> processing -> completed or failed as the provider reports.
// The simulator accepts every submission and waits for POST /test_helpers/payments/{cashoutId},
// which reports the provider's outcome here and then applies it to the cashout record. Submissions
// are documents of the shared world (kind `payment`, key the cashout ID): every instance knows them.
import type { PayoutMethod } from '../domain/money.ts';
import { deleteKinds, MemoryWorld, type SharedWorld } from '../world.ts';

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

const KIND = 'payment';

export class PaymentsSimulator implements Payments {
  readonly #world: SharedWorld;

  constructor(world: SharedWorld = new MemoryWorld()) {
    this.#world = world;
  }

  submit(cashoutId: number, provider: Provider, amount: number, email: string): string {
    const transactionId = `${provider === 'provider_a' ? 'PA' : 'PB'}-${cashoutId.toString().padStart(8, '0')}`;
    const submission: Submission = { provider, amount, email, transactionId, status: 'pending' };
    this.#world.put(KIND, String(cashoutId), submission);
    return transactionId;
  }

  submitted(cashoutId: number): Submission | undefined {
    const found = this.#world.get<Submission>(KIND, String(cashoutId));
    return found && { ...found };
  }

  /** Records what the provider reports; undefined for an unknown cashout or a move out of a final state. */
  report(cashoutId: number, outcome: PaymentOutcome): Submission | undefined {
    const found = this.#world.get<Submission>(KIND, String(cashoutId));
    if (!found || !NEXT[found.status].includes(outcome)) return undefined;
    const reported = { ...found, status: outcome };
    this.#world.put(KIND, String(cashoutId), reported);
    return { ...reported };
  }

  clear(): void {
    deleteKinds(this.#world, KIND);
  }
}
