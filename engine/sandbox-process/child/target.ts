// The sandbox process's half of one execution (run.ts RunTarget): the isolate's calls, log lines and unanswered
// calls go to the server as messages and the replies come back here; the server's Execution decides everything.
import type { EngineLimits } from '../../limits.ts';
import type { RunTarget } from '../../run.ts';
import { CLOSED_REPLY, type HostToServer, type RunMessage } from '../channel.ts';

export class Target implements RunTarget {
  readonly id: number;
  readonly source: string;
  readonly tenant: string;
  readonly names: string;
  readonly limits: EngineLimits;
  /** This process's resident memory when the execution started: what "its memory is back" compares with. */
  readonly rssAtStart: number;
  closed = false;
  inFlight = 0;
  /** Replies to its calls received from the server: an idle isolate resumes only on one (see the heartbeat). */
  received = 0;
  readonly breach = null;
  private nextCall = 1;
  private readonly replies = new Map<number, (reply: string) => void>();
  private readonly send: (msg: HostToServer) => void;

  constructor(run: RunMessage, rssAtStart: number, send: (msg: HostToServer) => void) {
    this.id = run.id;
    this.tenant = run.tenant;
    this.source = run.source;
    this.names = run.names;
    this.limits = run.limits;
    this.rssAtStart = rssAtStart;
    this.send = send;
  }

  call(name: unknown, json: unknown): string | Promise<string> {
    if (this.closed) return CLOSED_REPLY;
    const call = this.nextCall++;
    this.inFlight++;
    this.send({ type: 'call', id: this.id, call, name: String(name), args: String(json) });
    return new Promise((resolve) =>
      this.replies.set(call, (reply) => {
        this.inFlight--;
        resolve(reply);
      }),
    );
  }

  /** The server's reply to call `call`; one it does not wait for (any more) is dropped. */
  replied(call: number, reply: string): void {
    const resolve = this.replies.get(call);
    if (!resolve) return;
    this.replies.delete(call);
    this.received++;
    resolve(reply);
  }

  log(level: unknown, message: unknown): void {
    if (!this.closed && typeof message === 'string') this.send({ type: 'log', id: this.id, level: String(level), message });
  }

  unansweredAtEnd(names: string): void {
    this.send({ type: 'unanswered', id: this.id, names });
  }

  close(): void {
    this.closed = true;
  }
}
