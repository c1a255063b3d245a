import { describe, expect, it } from 'vitest';
import { type PaymentOutcome, type PaymentStatus, PaymentsSimulator } from './payments.ts';

describe('the payments simulator', () => {
  it('records a submission as pending, with a transaction ID per provider', () => {
    const payments = new PaymentsSimulator();
    expect(payments.submit(12, 'provider_a', 5000, 'a@example.com')).toBe('PA-00000012');
    expect(payments.submit(13, 'provider_b', 6000, 'b@example.com')).toBe('PB-00000013');
    expect(payments.submitted(12)).toEqual({
      provider: 'provider_a',
      amount: 5000,
      email: 'a@example.com',
      transactionId: 'PA-00000012',
      status: 'pending',
    });
  });

  it.each<[string, PaymentOutcome[], PaymentStatus | undefined]>([
    ['pending -> processing', ['processing'], 'processing'],
    ['pending -> completed', ['completed'], 'completed'],
    ['processing -> failed', ['processing', 'failed'], 'failed'],
    ['processing -> processing', ['processing', 'processing'], undefined],
    ['completed -> failed', ['completed', 'failed'], undefined],
    ['failed -> completed', ['failed', 'completed'], undefined],
  ])('%s', (_name, outcomes, last) => {
    const payments = new PaymentsSimulator();
    payments.submit(1, 'provider_a', 5000, '');
    const reports = outcomes.map((o) => payments.report(1, o));
    expect(reports.at(-1)?.status).toBe(last);
    if (last === undefined) expect(payments.submitted(1)?.status).toBe(outcomes.at(-2));
  });

  it('knows no unknown cashout, and forgets everything on clear', () => {
    const payments = new PaymentsSimulator();
    expect(payments.report(9, 'completed')).toBeUndefined();
    payments.submit(1, 'provider_b', 5000, '');
    payments.clear();
    expect(payments.submitted(1)).toBeUndefined();
  });
});
