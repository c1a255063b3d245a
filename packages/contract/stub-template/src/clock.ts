// The one clock every time-based rule reads (token expiry, cooldowns, rate-limit windows): real
// time, unless the test helpers set or advance it (test mode only).
export class Clock {
  private offset = 0;
  private fixed: number | undefined;

  /** Unix seconds. */
  now(): number {
    return this.fixed ?? Math.floor(Date.now() / 1000) + this.offset;
  }

  advance(seconds: number): void {
    if (this.fixed !== undefined) this.fixed += seconds;
    else this.offset += seconds;
  }

  set(unixSeconds: number): void {
    this.fixed = unixSeconds;
  }

  /** Back on real time. */
  reset(): void {
    this.offset = 0;
    this.fixed = undefined;
  }
}
