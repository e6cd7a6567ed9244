// The sandbox host processes of one engine: where each new slot lives (the host with the fewest), the watchdog
// that samples their memory and heartbeats, and what their deaths add up to (crashes by reason, quarantine).
import type { ResolvedConfig } from '../limits.ts';
import type { SlotHooks } from '../slot.ts';
import type { ChildProcess } from 'node:child_process';
import { HostProcess, type HostDeath } from './host-process.ts';
import { Quarantine } from './quarantine.ts';
import { orgPrincipal, personPrincipal } from '../principal.ts';
import { hostCpus } from './cpu-pinning.ts';
import { RemoteSlot } from './remote-slot.ts';
import { spawnSettings, startHostProcess, type SpawnSettings } from './sandbox-env.ts';

const WATCH_MS = 100;

export interface HostStats {
  live: number;
  starting: number;
  crashes: Record<string, number>;
  restarts: number;
  quarantined: number;
  rssBytes: number[];
  /** Process ids of the hosts (0 while one is being replaced). */
  pids: number[];
  /** The CPU each host's process runs on, as it reported after moving there (null: not pinned, or not yet). */
  cpus: (number | null)[];
}

export class HostSet {
  readonly hosts: HostProcess[] = [];
  readonly crashes: Record<string, number> = {};
  restarts = 0;
  readonly quarantine: Quarantine;
  private hooks: SlotHooks | null = null;
  private nextSlot = 1;
  private readonly settings: SpawnSettings;
  private readonly watchdog: NodeJS.Timeout;
  private readonly config: ResolvedConfig;

  constructor(config: ResolvedConfig) {
    this.config = config;
    this.quarantine = new Quarantine(config.quarantineAfter, config.quarantineWindowMs, config.quarantineMs, config.strikeLedger);
    this.settings = spawnSettings();
    const events = {
      recycled: (reason: string) => this.hooks?.recycled(reason),
      died: (death: HostDeath) => this.died(death),
      takeProcess: () => this.takeProcess(),
      suspect: (tenant: string) => this.quarantine.suspect(orgPrincipal(tenant)),
    };
    const cpuOf = hostCpus(config.pinHosts, config.hosts);
    for (let i = 0; i < config.hosts; i++) this.hosts.push(new HostProcess(i, config, events, cpuOf(i)));
    for (const host of this.hosts) host.spawn();
    this.warmUp();
    let lastTick = performance.now();
    this.watchdog = setInterval(() => {
      const now = performance.now();
      // A late tick means this process's event loop was busy (a long synchronous or microtask-only stretch): the
      // hosts' heartbeats are waiting unread in their sockets, so their silence is not judged until they are read.
      const judgeSilence = now - lastTick < 3 * WATCH_MS;
      lastTick = now;
      for (const host of this.hosts) host.watch(now, judgeSilence);
    }, WATCH_MS);
    this.watchdog.unref();
  }

  /** The pool's slot factory: a slot on the host carrying the fewest, among those running no suspect's script. */
  createSlot(hooks: SlotHooks): RemoteSlot {
    this.hooks = hooks;
    const safe = this.hosts.filter((h) => !h.atRisk());
    const host = (safe.length ? safe : this.hosts).reduce((a, b) => (b.slots.size < a.slots.size ? b : a));
    return new RemoteSlot(this.nextSlot++, host, hooks);
  }

  /**
   * One spare process is kept started (Node and isolated-vm loaded, no slots): a host that dies is replaced by it at
   * once, so capacity comes back in the time to build isolates (tens of ms), not to start Node (hundreds).
   */
  private spare: ChildProcess | null = null;
  private closed = false;

  private warmUp(): void {
    if (this.closed || this.spare) return;
    const child = startHostProcess(this.config, this.settings);
    this.spare = child;
    // A spare that dies unused (it should not) is replaced after a pause, never in a tight loop.
    child.once('close', () => {
      if (this.spare !== child) return;
      this.spare = null;
      setTimeout(() => this.warmUp(), 1000).unref();
    });
  }

  private takeProcess(): ChildProcess {
    const spare = this.spare;
    this.spare = null;
    if (spare) setImmediate(() => this.warmUp());
    return spare ?? startHostProcess(this.config, this.settings);
  }

  private died(death: HostDeath): void {
    this.crashes[death.reason] = (this.crashes[death.reason] ?? 0) + 1;
    this.restarts++;
    // One strike for each blamed organization and each person behind them: a person rotating a crashing script over
    // several organizations spends one budget.
    this.quarantine.strike([...death.tenants.map(orgPrincipal), ...[...new Set(death.persons)].map(personPrincipal)]);
    this.config.onHostCrash?.(death);
  }

  stats(): HostStats {
    return {
      live: this.hosts.filter((h) => h.live && h.up).length,
      starting: this.hosts.filter((h) => h.starting).length,
      crashes: { ...this.crashes },
      restarts: this.restarts,
      quarantined: this.quarantine.size,
      rssBytes: this.hosts.map((h) => h.rssBytes),
      pids: this.hosts.map((h) => h.pid),
      cpus: this.hosts.map((h) => h.pinned),
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.watchdog);
    this.spare?.kill('SIGKILL');
    this.spare = null;
    await Promise.all(this.hosts.map((h) => h.close()));
    this.settings.dispose();
  }
}
