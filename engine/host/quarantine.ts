// Containment of a tenant whose scripts keep killing sandbox hosts: `after` deaths blamed on it within `windowMs`
// and it is refused (error type `quarantined`) for `coolDownMs`, so it cannot crash-loop everyone's capacity.
export class Quarantine {
  private readonly strikes = new Map<string, number[]>();
  private readonly until = new Map<string, number>();
  private readonly after: number;
  private readonly windowMs: number;
  private readonly coolDownMs: number;

  constructor(after: number, windowMs: number, coolDownMs: number) {
    this.after = after;
    this.windowMs = windowMs;
    this.coolDownMs = coolDownMs;
  }

  strike(tenant: string, now = performance.now()): void {
    const recent = (this.strikes.get(tenant) ?? []).filter((at) => now - at < this.windowMs);
    recent.push(now);
    if (recent.length >= this.after) {
      this.until.set(tenant, now + this.coolDownMs);
      this.strikes.delete(tenant);
    } else {
      this.strikes.set(tenant, recent);
    }
    if (this.strikes.size > 10_000) this.forgetOld(now);
  }

  /** A host died for this tenant's script within the window (not yet quarantined). */
  suspect(tenant: string, now = performance.now()): boolean {
    const at = this.strikes.get(tenant);
    return !!at && now - at[at.length - 1] < this.windowMs;
  }

  /** Milliseconds of cool-down left for this tenant (0: not quarantined). */
  remainingMs(tenant: string, now = performance.now()): number {
    const end = this.until.get(tenant);
    if (end === undefined) return 0;
    if (end > now) return end - now;
    this.until.delete(tenant);
    return 0;
  }

  get size(): number {
    const now = performance.now();
    for (const [tenant, end] of this.until) if (end <= now) this.until.delete(tenant);
    return this.until.size;
  }

  private forgetOld(now: number): void {
    for (const [tenant, at] of this.strikes) if (now - at[at.length - 1] >= this.windowMs) this.strikes.delete(tenant);
  }
}
