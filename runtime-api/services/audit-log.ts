// The execution audit log's writer: rows are queued and written in batches (one multi-row INSERT per event-loop
// turn), so recording an execution costs the request no database round trip of its own. One writer per `sql`
// handle; readers (executions_list) and shutdown flush it first, so nothing recorded is missed or lost.
import type { Sql } from 'postgres';
import { newId } from '../ids.ts';
import type { ExecutionRecord } from '../store/executions.ts';

const MAX_BATCH = 500;

export class AuditLog {
  private queue: (ExecutionRecord & { id: string; createdAt: Date })[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private scheduled = false;
  private readonly sql: Sql;
  private readonly onError: (err: unknown) => void;

  constructor(sql: Sql, onError: (err: unknown) => void = (err) => process.emitWarning(`audit log write failed: ${String(err)}`)) {
    this.sql = sql;
    this.onError = onError;
  }

  /** Rows waiting to be written, and batches that failed to write (for the metrics endpoint). */
  get pending(): number {
    return this.queue.length;
  }
  failedBatches = 0;

  record(row: ExecutionRecord, at: Date): void {
    this.queue.push({ ...row, id: newId('exe'), createdAt: at, wallMs: Math.round(row.wallMs), cpuMs: Math.round(row.cpuMs) });
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        void this.flush();
      });
    }
  }

  /** Resolves once every row recorded so far is in the database. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.writeQueued());
    return this.flushing;
  }

  private async writeQueued(): Promise<void> {
    while (this.queue.length) {
      const batch = this.queue.splice(0, MAX_BATCH).map((r) => ({
        id: r.id,
        org_id: r.orgId,
        user_id: r.userId,
        client_id: r.clientId,
        via: r.via,
        source: r.source,
        key_id: r.keyId,
        script_excerpt: r.scriptExcerpt,
        script_lines: r.scriptLines,
        mode: r.mode,
        script_sha256: r.scriptSha256,
        ok: r.ok,
        error_type: r.errorType,
        error_code: r.errorCode,
        error_message: r.errorMessage,
        error_line: r.errorLine,
        wall_ms: r.wallMs,
        cpu_ms: r.cpuMs,
        host_calls: r.hostCalls,
        created_at: r.createdAt,
      }));
      try {
        await this.sql`insert into executions ${this.sql(batch)}`;
      } catch (err) {
        this.failedBatches++;
        this.onError(err);
      }
    }
  }
}

const writers = new WeakMap<Sql, AuditLog>();

export function auditLogFor(sql: Sql): AuditLog {
  let log = writers.get(sql);
  if (!log) {
    log = new AuditLog(sql);
    writers.set(sql, log);
  }
  return log;
}
