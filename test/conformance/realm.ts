// The two places a test262 file is run: a plain isolated-vm context (no prelude), and a context prepared exactly as
// the engine prepares one for a script (engine/slot.ts prepareContextSync, then the setup task of engine/run.ts, then
// the empty wrapped script that consumes `__start`), so the global code of a test sees the globals a script sees.
// Both live in one isolate built with the sandbox's V8 flags (the caller applies them) and the sandbox's heap limit.
import ivm from 'isolated-vm';
import { PRELUDE, PRELUDE_FILENAME, SCRIPT_URL, SENTINEL } from '../../engine/prelude.ts';
import { WRAPPER_LINE_OFFSET, wrapSource } from '../../engine/compile.ts';
import { prepareContextSync } from '../../engine/slot.ts';
import { EVAL_KIT_PARAMS, rewriteDirectEval } from '../../engine/direct-eval.ts';
import { setupArguments, type RunTarget } from '../../engine/run.ts';
import { DEFAULT_LIMITS } from '../../engine/limits.ts';

export type Mode = 'plain' | 'sandbox';
export const MODES: readonly Mode[] = ['plain', 'sandbox'];

/** The sandbox's default heap limit (server/config.ts SCRIPT_MEMORY_MB); the plain context gets the same. */
export const MEMORY_MB = 64;
const TENANT = 'conformance';
/** $262.evalScript runs inside a test's own run, whose timeout does not cover the nested evaluation. */
const EVAL_SCRIPT_TIMEOUT_MS = 10_000;

/** The outcome of evaluating one script: its error, if it threw (or failed to compile), and what it printed. */
export interface Evaluation {
  /** 'parse' (did not compile), 'runtime' (threw), or null. */
  phase: 'parse' | 'runtime' | null;
  /** The thrown error's name ("Test262Error" is seen as "Error": isolated-vm copies only standard error names). */
  name: string;
  message: string;
  printed: string[];
  /** The isolate was lost (heap limit or timeout): rebuilt before the next script. */
  lost: boolean;
}

// Host-defined parts of the test262 environment: `print` (async tests report through it) and `$262`. Installed the
// same way in both contexts, after the engine's own preparation, as a host would provide them natively.
const HOOKS = `(function (detachNow, printOut, evalNow) {
  var define = Object.defineProperty;
  var host = {
    global: globalThis,
    detachArrayBuffer: function detachArrayBuffer(buffer) { detachNow(buffer); return null; },
    evalScript: function evalScript(source) { return evalNow(String(source)); },
  };
  define(globalThis, '$262', { value: host, writable: true, enumerable: false, configurable: true });
  define(globalThis, 'print', { value: function print(message) { printOut(String(message)); }, writable: true, enumerable: false, configurable: true });
})`;

// A script's own eval(...) calls stay direct through a rewrite of its source (engine/direct-eval.ts) that binds the
// name eval to V8's eval around it, with the helpers of its checked call sites, taken from the prelude by the
// wrapper (engine/compile.ts wrapSource). Test code is global code, which no wrapper function can surround: the
// runner takes the same helpers the same way and binds the same names as global lexical declarations, in a script
// of their own run before a test whose source the engine would rewrite, then runs the rewritten test. Unlike the
// product's function-scoped binding, code the test compiles at run time (new Function, indirect eval) sees them too.
const START_WITH_EVAL_KIT = `__start(((${EVAL_KIT_PARAMS}) => { globalThis.__conformanceEvalKit = [${EVAL_KIT_PARAMS}]; return async function anonymous() {}; })(...__sandboxEvalKit()))`;
const BIND_EVAL_KIT = `let [${EVAL_KIT_PARAMS}] = globalThis.__conformanceEvalKit; delete globalThis.__conformanceEvalKit;`;

// Detaching is done by the host's own primitive, taken from a context the prelude never ran in (the sandbox may
// remove ArrayBuffer.prototype.transfer). A function of another context of the same isolate is callable directly.
const DETACH = `(function () { var transfer = ArrayBuffer.prototype.transfer; return function detach(b) { transfer.call(b); }; })()`;

function conformanceTarget(): RunTarget {
  return {
    id: 1,
    source: '',
    tenant: TENANT,
    names: '',
    limits: DEFAULT_LIMITS,
    closed: false,
    inFlight: 0,
    breach: null,
    call: () => 'E{}',
    log: () => {},
    unansweredAtEnd: () => {},
    close: () => {},
  };
}

function stripLocation(message: string): string {
  return message.replace(/\s*\[[^\]]*:\d+:\d+\]$/, '');
}

/** Every engine task ends by rejecting with the sentinel (engine/prelude.ts): that is its expected end. */
function engineTask(task: () => unknown): void {
  try {
    task();
  } catch (err) {
    if (!(err instanceof Error && err.message.startsWith(SENTINEL))) throw err;
  }
}

export class Realms {
  private iso!: ivm.Isolate;
  private prelude!: ivm.Script;
  private start!: ivm.Script;
  private startWithEvalKit!: ivm.Script;
  private bindEvalKit!: ivm.Script;
  private hooks!: ivm.Script;
  private detach!: ivm.Reference;
  private helper!: ivm.Context;
  private printed: string[] = [];
  private current: ivm.Context | null = null;
  private readonly printCallback = new ivm.Callback((m: unknown) => {
    this.printed.push(String(m));
  });
  private readonly evalCallback = new ivm.Callback((source: unknown) => {
    // Re-entering the isolate from a synchronous callback is allowed; the value is copied back.
    if (!this.current) throw new Error('no context');
    return this.current.evalSync(String(source), { copy: true, timeout: EVAL_SCRIPT_TIMEOUT_MS });
  });
  private readonly dispatcher = new ivm.Callback(() => {}, { ignored: true });
  scriptsRun = 0;

  constructor() {
    this.build();
  }

  private build(): void {
    this.iso = new ivm.Isolate({ memoryLimit: MEMORY_MB });
    this.prelude = this.iso.compileScriptSync(PRELUDE, { filename: PRELUDE_FILENAME });
    this.start = this.iso.compileScriptSync(wrapSource('', TENANT), { filename: SCRIPT_URL, lineOffset: WRAPPER_LINE_OFFSET });
    this.startWithEvalKit = this.iso.compileScriptSync(START_WITH_EVAL_KIT, { filename: SCRIPT_URL });
    this.bindEvalKit = this.iso.compileScriptSync(BIND_EVAL_KIT);
    this.hooks = this.iso.compileScriptSync(HOOKS);
    this.helper = this.iso.createContextSync();
    this.detach = this.helper.evalSync(DETACH, { reference: true }) as ivm.Reference;
    this.scriptsRun = 0;
  }

  /** Replaces the isolate (after it was lost, or to bound what a long batch accumulates). */
  rebuild(): void {
    try {
      this.iso.dispose();
    } catch {
      /* already gone */
    }
    this.build();
  }

  dispose(): void {
    try {
      this.iso.dispose();
    } catch {
      /* already gone */
    }
  }

  /**
   * A fresh context of `mode`, with the host hooks of test262 installed unless `hooks` is false; in the sandbox, with
   * the names a rewritten script's direct evals need bound if `evalKit` (see START_WITH_EVAL_KIT).
   */
  context(mode: Mode, hooks = true, evalKit = false): ivm.Context {
    let ctx: ivm.Context;
    if (mode === 'plain') {
      ctx = this.iso.createContextSync();
    } else {
      const prepared = prepareContextSync(this.iso, this.prelude);
      ctx = prepared.ctx;
      engineTask(() => prepared.run.applySync(undefined, setupArguments(conformanceTarget(), this.dispatcher)));
      if (evalKit) {
        engineTask(() => this.startWithEvalKit.runSync(ctx));
        this.bindEvalKit.runSync(ctx);
      } else {
        engineTask(() => this.start.runSync(ctx));
      }
      prepared.run.release();
    }
    if (!hooks) return ctx;
    const install = this.hooks.runSync(ctx, { reference: true }) as ivm.Reference;
    install.applySync(undefined, [this.detach.derefInto(), this.printCallback, this.evalCallback]);
    install.release();
    return ctx;
  }

  /** Compile and run `code` as global code of a fresh context of `mode`. */
  evaluate(mode: Mode, code: string, timeoutMs: number): Evaluation {
    this.printed = [];
    const result: Evaluation = { phase: null, name: '', message: '', printed: this.printed, lost: false };
    let ctx: ivm.Context | null = null;
    let script: ivm.Script | null = null;
    this.scriptsRun++;
    try {
      // What the engine would compile for this source: its direct evals rewritten (null: left as it is).
      const rewritten = mode === 'sandbox' ? rewriteDirectEval(code, '', '') : null;
      ctx = this.context(mode, true, rewritten !== null);
      this.current = ctx;
      try {
        script = this.iso.compileScriptSync(rewritten ?? code, { filename: 'test.js' });
      } catch (err) {
        return this.failed(result, 'parse', err);
      }
      try {
        script.runSync(ctx, { timeout: timeoutMs });
      } catch (err) {
        return this.failed(result, 'runtime', err);
      }
      return result;
    } catch (err) {
      // Preparing the context failed: the isolate is unusable.
      result.lost = true;
      return this.failed(result, 'runtime', err);
    } finally {
      this.current = null;
      try {
        script?.release();
      } catch {
        /* isolate gone */
      }
      try {
        ctx?.release();
      } catch {
        /* isolate gone */
      }
      if (result.lost || this.iso.isDisposed) {
        result.lost = true;
        this.rebuild();
      }
    }
  }

  private failed(result: Evaluation, phase: 'parse' | 'runtime', err: unknown): Evaluation {
    result.phase = phase;
    if (err instanceof Error) {
      result.name = err.name;
      result.message = stripLocation(err.message);
      if (this.iso.isDisposed || (err.name === 'Error' && /^Script execution timed out\.$/.test(err.message))) result.lost = true;
    } else {
      result.name = typeof err;
      result.message = String(err);
    }
    return result;
  }
}
