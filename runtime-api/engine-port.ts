// What the binding core needs from the script engine (engine/ implements it; it knows nothing of bindings).
export type HostResult =
  | { ok: true; json: string; hostMs?: number }
  | { ok: false; error: { code: string; message: string; resolution?: string } };

export interface ExecutionRequest {
  /** The body of an async function; `return` gives the result. */
  source: string;
  /** Names to expose as async globals. */
  bindings: readonly string[];
  hostCall: (name: string, argsJson: string, signal: AbortSignal) => Promise<HostResult>;
  /** The organization it runs for: the engine shares its isolates fairly between organizations. */
  tenant?: string;
  /** The person it runs for (the caller's account): the engine's budgets count per person too. */
  person?: string;
  /** Called once the script has an isolate, right before it runs (never for a refusal or a busy engine). */
  onStart?: () => void;
  /** Bindings that only read: a run that called nothing else may be run again if its sandbox process dies. */
  repeatable?: readonly string[];
}

export interface ExecutionError {
  type: string;
  code?: string;
  message: string;
  line?: number;
  resolution?: string;
}

export interface ExecutionResult {
  ok: boolean;
  result?: unknown;
  /** One entry per console call; a final `[logs truncated …]` warn entry when capped. */
  logs: { level: 'log' | 'info' | 'warn' | 'error'; message: string }[];
  error?: ExecutionError;
  truncated: boolean;
  stats: { wallMs: number; cpuMs: number; hostMs: number; hostCalls: number; queueMs: number };
  /** Bindings whose calls the script left unanswered at its end (engine-internal: never sent to a client). */
  unansweredCalls?: readonly string[];
}

export interface ScriptEngine {
  execute(request: ExecutionRequest): Promise<ExecutionResult>;
}
