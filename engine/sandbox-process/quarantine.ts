// Containment of a principal (an organization or a person) whose scripts keep killing sandbox hosts: `after`
// deaths blamed on it within `windowMs` and it is refused (error type `quarantined`) for `coolDownMs`, so it cannot
// crash-loop everyone's capacity. A principal with a strike in the window is a suspect (the pool runs it apart).
// Every check is answered from memory; strikes also go to a ledger every instance shares (the server: PostgreSQL),
// and the strikes other instances recorded are read back at most every SYNC_MS while executions arrive (an idle
// instance asks its database nothing; one idle for STALE_MS reads them before its next execution), so a budget spent
// on one instance is spent on all. Each instance derives quarantines from the same strikes by the same rule, so they
// agree without a lock.

/** A host death blamed on `principal` at `at` (ms since the epoch); `id` makes recording it twice harmless. */
export interface Strike {
  id: string;
  principal: string;
  at: number;
}

/** Where strikes are shared between instances (engine/ knows no SQL: the server passes its own). */
export interface StrikeLedger {
  record(strikes: readonly Strike[]): Promise<void>;
  /** Strikes any instance recorded at or after `sinceMs`. */
  recent(sinceMs: number): Promise<Strike[]>;
  /** Forget strikes older than `beforeMs` (none can matter any more). */
  prune(beforeMs: number): Promise<void>;
}

/** How often strikes other instances recorded are read back while executions arrive. */
const SYNC_MS = 1000;
/** Read back this long after the last read, an execution waits for the read (else it is checked against what is known). */
const STALE_MS = 10_000;
/** Read back from a little before the last read: another instance's clock, or its insert, may lag ours. */
const SYNC_OVERLAP_MS = 10_000;
const PRUNE_EVERY_MS = 10 * 60_000;
const MAX_TRACKED = 10_000;

let strikeSeq = 0;
const strikeId = () => `${process.pid.toString(36)}.${Date.now().toString(36)}.${(strikeSeq++).toString(36)}.${Math.random().toString(36).slice(2, 8)}`;

export class Quarantine {
  /** Strikes per principal, oldest first, kept for windowMs + coolDownMs (what the rule can still look at). */
  private readonly strikes = new Map<string, Strike[]>();
  private readonly seen = new Set<string>();
  private readonly until = new Map<string, number>();
  private readonly after: number;
  private readonly windowMs: number;
  private readonly coolDownMs: number;
  private readonly ledger: StrikeLedger | null;
  private syncedTo = 0;
  private lastPrune = 0;
  /** When the last read back started (ms since the epoch). */
  private lastSync = 0;
  private syncing: Promise<void> | null = null;
  private loading: Promise<void> | null = null;
  /** `loaded` has resolved (checked first, so that a running engine adds no await to every execution). */
  isLoaded = false;
  /** The last error the ledger gave (reads and writes go on in memory meanwhile). */
  ledgerError: Error | null = null;

  constructor(after: number, windowMs: number, coolDownMs: number, ledger: StrikeLedger | null = null) {
    this.after = after;
    this.windowMs = windowMs;
    this.coolDownMs = coolDownMs;
    this.ledger = ledger;
    if (!ledger) {
      this.isLoaded = true;
      return;
    }
    this.syncedTo = Date.now() - this.retentionMs();
  }

  /**
   * Resolves once strikes recorded before this instance started have been read (or the first read failed). The read
   * starts on first use (the engine's first execution, or ready()), not when the engine is built: building one (for
   * its stats, say) asks the ledger nothing.
   */
  get loaded(): Promise<void> {
    this.loading ??= this.ledger
      ? this.sync().then(() => {
          this.isLoaded = true;
        })
      : Promise.resolve();
    return this.loading;
  }

  /**
   * Called for each execution: reads back other instances' strikes if the last read is SYNC_MS old, and returns the
   * read to wait for when it is STALE_MS old (the instance was idle), else null (the execution does not wait).
   */
  refresh(now = Date.now()): Promise<void> | null {
    if (!this.ledger || now - this.lastSync < SYNC_MS) return null;
    const stale = now - this.lastSync >= STALE_MS;
    const read = this.sync();
    return stale ? read : null;
  }

  private retentionMs(): number {
    return this.windowMs + this.coolDownMs;
  }

  /** A host death blamed on each of these principals (an organization and the person behind the script). */
  strike(principals: readonly string[], now = Date.now()): void {
    const fresh = principals.map((principal) => ({ id: strikeId(), principal, at: now }));
    for (const s of fresh) this.add(s, now);
    if (this.ledger && fresh.length) {
      this.ledger.record(fresh).catch((err: Error) => {
        this.ledgerError = err;
      });
    }
  }

  /** Read back the strikes every instance recorded since the last read. */
  sync(): Promise<void> {
    if (!this.ledger) return Promise.resolve();
    this.syncing ??= (async () => {
      const now = Date.now();
      this.lastSync = now;
      try {
        for (const s of await this.ledger!.recent(this.syncedTo - SYNC_OVERLAP_MS)) this.add(s, now);
        this.syncedTo = now;
        this.ledgerError = null;
        if (now - this.lastPrune > PRUNE_EVERY_MS) {
          this.lastPrune = now;
          await this.ledger!.prune(now - this.retentionMs() - SYNC_OVERLAP_MS);
        }
      } catch (err) {
        this.ledgerError = err as Error;
      } finally {
        this.syncing = null;
      }
    })();
    return this.syncing;
  }

  private add(strike: Strike, now: number): void {
    if (this.seen.has(strike.id) || now - strike.at >= this.retentionMs()) return;
    this.seen.add(strike.id);
    const list = this.strikes.get(strike.principal) ?? [];
    list.push(strike);
    // Another instance's strike may be older than ours: keep them in time order, so that every instance applies
    // the rule to the same sequence.
    if (list.length > 1 && list[list.length - 2].at > strike.at) list.sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1));
    this.strikes.set(strike.principal, list);
    this.judge(strike.principal, now);
    if (this.strikes.size > MAX_TRACKED) this.forgetOld(now);
  }

  /**
   * The rule, applied to the principal's strikes in time order: the `after`-th strike within windowMs of the first
   * one counted starts a cool-down of coolDownMs, and counting starts again after it.
   */
  private judge(principal: string, now: number): void {
    const list: Strike[] = [];
    for (const s of this.strikes.get(principal) ?? []) {
      if (now - s.at < this.retentionMs()) list.push(s);
      else this.seen.delete(s.id); // too old to be added again (see add)
    }
    this.strikes.set(principal, list);
    let counted: number[] = [];
    let end = 0;
    for (const s of list) {
      counted = counted.filter((at) => s.at - at < this.windowMs);
      counted.push(s.at);
      if (counted.length >= this.after) {
        end = Math.max(end, s.at + this.coolDownMs);
        counted = [];
      }
    }
    if (end > now) this.until.set(principal, Math.max(end, this.until.get(principal) ?? 0));
  }

  /** A host died for this principal's script within the window: its scripts run apart from others' work. */
  suspect(principal: string, now = Date.now()): boolean {
    const list = this.strikes.get(principal);
    return !!list?.length && now - list[list.length - 1].at < this.windowMs;
  }

  /** Milliseconds of cool-down left for this principal (0: not quarantined). */
  remainingMs(principal: string, now = Date.now()): number {
    const end = this.until.get(principal);
    if (end === undefined) return 0;
    if (end > now) return end - now;
    this.until.delete(principal);
    return 0;
  }

  /** Principals in quarantine now. */
  get size(): number {
    const now = Date.now();
    for (const [principal, end] of this.until) if (end <= now) this.until.delete(principal);
    return this.until.size;
  }

  private forgetOld(now: number): void {
    for (const [principal, list] of this.strikes) {
      if (now - list[list.length - 1].at >= this.retentionMs()) {
        this.strikes.delete(principal);
        for (const s of list) this.seen.delete(s.id);
      }
    }
  }
}
