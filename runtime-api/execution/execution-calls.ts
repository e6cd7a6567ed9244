// The host side of one execution's binding calls: every call goes through `invoke` as the execution's caller.
// Plan mode records writes instead of performing them; apply records each write when it is dispatched (not when it
// completes), so a write the script never awaited is still counted. Once the engine has answered, `end()` refuses
// every further call and waits for the calls still running, so none of them outlives the execution (or its
// transaction) and the caller learns how many writes were still in flight.
import type { Caller } from '../identity/caller.ts';
import type { InvokeDeps } from '../invoke.ts';
import { invoke, authorize, parseInput } from '../invoke.ts';
import { findBinding } from '../registry.ts';
import { ServiceError, type Locale } from '../errors.ts';
import type { HostResult } from '../../engine/index.ts';
import { LARGE_ARGUMENT_CHARS, largeArgumentGate } from '../services/host-work.ts';
import { noSuchBinding } from './messages.ts';

/** Records a write; returns its index in the ordered operations. */
export type Recorder = (binding: string, input: unknown) => number;

export interface CallPolicy {
  /** Plan mode: writes are recorded here and not performed. */
  plan?: Recorder;
  /** Apply mode: writes are recorded here when dispatched, then performed. */
  dispatched?: Recorder;
  /**
   * Run the calls one after another, in the order the script made them. Apply mode needs it: every call shares the
   * one transaction, and two writes' savepoints interleaved on it undo each other (a failing write's rollback to
   * its savepoint also discards a concurrent write that then reports success).
   */
  serial?: boolean;
}

/** A binding failure as the engine hands it to the script (an Error with code and resolution). */
export function hostError(err: unknown, locale: Locale): HostResult {
  const e = err instanceof ServiceError ? err : new ServiceError('internal_error', { cause: err });
  const body = e.toBody(locale) as { code?: string; message?: string; error?: { code: string; message: string; resolution: string } };
  const flat = body.error ?? { code: body.code!, message: body.message!, resolution: e.status < 500 ? e.resolutionFor(locale) : undefined };
  return { ok: false, error: { code: flat.code, message: flat.message, ...(flat.resolution ? { resolution: flat.resolution } : {}) } };
}

const ENDED: HostResult = { ok: false, error: { code: 'EXECUTION_CLOSED', message: 'The execution has ended; this call was not run.' } };

export class ExecutionCalls {
  /** The first scope refusal a binding gave (an uncaught one becomes the execution's 403). */
  scopeError: ServiceError | null = null;
  private readonly caller: Caller;
  /** A promise in apply mode: the transaction opens once the script has an isolate, and calls wait for it. */
  private readonly deps: InvokeDeps | Promise<InvokeDeps>;
  private readonly policy: CallPolicy;
  private readonly running = new Set<Promise<HostResult>>();
  private writesRunning = 0;
  private ended = false;
  /** The last call queued (serial mode). */
  private tail: Promise<unknown> = Promise.resolve();

  constructor(caller: Caller, deps: InvokeDeps | Promise<InvokeDeps>, policy: CallPolicy = {}) {
    this.caller = caller;
    this.deps = deps;
    this.policy = policy;
  }

  /** The engine's hostCall. */
  readonly hostCall = (name: string, argsJson: string, signal?: AbortSignal): Promise<HostResult> => {
    if (this.ended) return Promise.resolve(ENDED);
    // A write counts as running from its dispatch, even while it waits for its turn.
    const writes = findBinding(name)?.writes === true;
    if (writes) this.writesRunning++;
    const started = this.policy.serial ? this.tail.then(() => this.run(name, argsJson, signal)) : this.run(name, argsJson, signal);
    const call = started.finally(() => {
      if (writes) this.writesRunning--;
    });
    if (this.policy.serial) this.tail = call;
    this.running.add(call);
    void call.finally(() => this.running.delete(call));
    return call;
  };

  /** Refuse every later call, wait for those still running, and say how many writes were among them. */
  async end(): Promise<{ writesInFlight: number }> {
    this.ended = true;
    const writesInFlight = this.writesRunning;
    await Promise.allSettled([...this.running]);
    return { writesInFlight };
  }

  /** A call with a large argument waits its turn (one at a time per organization and per person, host-work.ts). */
  private run(name: string, argsJson: string, signal?: AbortSignal): Promise<HostResult> {
    if (argsJson.length < LARGE_ARGUMENT_CHARS) return this.runNow(name, argsJson, signal);
    const { caller } = this;
    const owner = { org: caller.membership?.orgId ?? `person:${caller.userId}`, person: caller.userId };
    // Its turn starts on a later turn of the event loop, so other requests' I/O is served between two such calls.
    return largeArgumentGate
      .run(
        owner,
        async () => {
          await new Promise(setImmediate);
          return this.runNow(name, argsJson, signal);
        },
        signal,
      )
      .catch((err) => hostError(err, caller.locale));
  }

  private async runNow(name: string, argsJson: string, signal?: AbortSignal): Promise<HostResult> {
    const { caller, deps, policy } = this;
    const binding = findBinding(name);
    try {
      if (!binding) throw noSuchBinding(name);
      const raw = argsJson === '' ? null : JSON.parse(argsJson);
      const recorder = binding.writes ? (policy.plan ?? policy.dispatched) : undefined;
      if (recorder) {
        authorize(binding, caller);
        const index = recorder(binding.name, parseInput(binding, raw, caller.locale));
        if (policy.plan) return { ok: true, json: JSON.stringify({ planned: true, index }) };
      }
      // The signal fires when the execution ends, so a killed script's heavy calls stop instead of running on.
      const resolved = await deps;
      // CPU spent for this call on another thread (a parser), charged to the execution with the reply.
      let hostMs = 0;
      const chargeHostMs = (ms: number) => {
        hostMs += ms;
      };
      const out = await invoke(binding, raw, caller, { ...resolved, chargeHostMs, ...(signal ? { signal } : {}) });
      return { ok: true, json: JSON.stringify(out ?? null), ...(hostMs > 0 ? { hostMs } : {}) };
    } catch (err) {
      if (err instanceof ServiceError && err.code === 'INSUFFICIENT_SCOPE') this.scopeError ??= err;
      return hostError(err, caller.locale);
    }
  }
}
