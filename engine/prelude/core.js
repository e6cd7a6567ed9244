// The in-isolate half of the engine, compiled once per isolate and run in every fresh context before user code
// (bundled into one script by scripts/build-prelude.ts). createPrelude returns the `run` function the host calls;
// nothing it holds is reachable from globals.
import { regExpLiteralChars } from '../regexp-literals.ts';
import { boundJson } from './json.js';
import { guardResources } from './resources.js';
import { installNativeText } from './native-text.js';
/** @import { EvalKit, Execution, Global, HostFailure, Limits, NullProtoDictionary, Outcome, PendingCall, Run } from './types.js' */

/*
 * Protocol (only strings, numbers and the dispatcher Callback cross; all fire-and-forget but the tasks):
 *   host → run('setup', execId, names, dispatch, maxArgBytes, maxResultBytes, maxLogBytes, maxLogLines,
 *              maxHostCalls, maxInFlight)         installs bindings and console, and a one-shot `__start`
 *   host → the user's compiled script, `__start(async function anonymous() {…})` (compile.ts)
 *   host → run('deliver', callId, reply)        reply: 'R' + json | 'E' + {kind, code, message, resolution?}
 *   host → run('forget')                        after an execution that compiled long regular-expression literals
 *                                               (its script's, or 'L' below): two full GCs empty V8's RegExp cache
 *   isolate → host, when a task ends, in the message of its sentinel (below), NUL-separated records:
 *     'C' + callId, name, argJson                 a binding call made during the task
 *     'D' + outcome                               'R' + json ('' = undefined) | 'E' + {type, code?, message, …}
 *     'L'                                         evaluated code held long regular-expression literals (once)
 *   isolate → dispatch(execId, 'log', level, message)  at once (logs must survive a kill); 'trunc' = cut
 * The user's code is compiled by the host with compileScript (never eval or new Function in the fresh
 * context: dynamic code generation costs each new context ~0.15 ms and keeps some alive), after the host
 * checked that it is one function body, so it cannot close the wrapper and run at the top level.
 *
 * Sentinel: at the end of every task isolated-vm copies the *first* unhandled rejection out of the isolate
 * with ExternalCopy::CopyThrownValue, which reads `message`/`stack` outside any timeout and swallows
 * termination, so a looping getter on a rejected value would spin a thread forever (research A3). User
 * code only ever runs inside `__start` and `run`, whose first act is to leave one unhandled rejection of
 * our own null-prototype record, held strongly until the task ends: it is always first, the only one
 * copied, and its plain `message` doubles as the task's outbox (calls, outcome): one crossing per task.
 * Host replies arrive as host-initiated tasks (never as isolate-side promise resolutions) for that reason.
 *
 * Everything used after user code starts is captured first, and every object built then has a null
 * prototype or is defined with defineProperty, so a polluted prototype cannot redirect it. Strict mode
 * keeps `fn.caller` and CallSite#getFunction from exposing these closures.
 */
/**
 * `limits` (a frozen null-prototype record, prelude.ts) gives the caps and protocol strings: MAX_BUILT_STRING,
 * MAX_READ_TEXT, SALT_MIN_PATTERN (prelude-resources.ts), MAX_RESULT_DEPTH, SCRIPT_URL, SENTINEL, SEP (prelude.ts).
 * @param {Limits} limits
 * @returns {Run}
 */
export function createPrelude(limits) {
  const MAX_BUILT_STRING = limits.maxBuiltString;
  const MAX_READ_TEXT = limits.maxReadText;
  const SALT_MIN_PATTERN = limits.saltMinPattern;
  const MAX_RESULT_DEPTH = limits.maxResultDepth;
  const SCRIPT_URL = limits.scriptUrl;
  const SENTINEL = limits.sentinel;
  const SEP = limits.sep;
  /** @type {Global} */
  const G = globalThis;
  const defineProperty = Object.defineProperty;
  const freeze = Object.freeze;
  const defineProperties = Object.defineProperties;
  const rapply = Reflect.apply;
  const jsonParse = JSON.parse;
  const jsonStringify = JSON.stringify;
  const StringCtor = String;
  const ErrorCtor = Error;
  const TypeErrorCtor = TypeError;
  const PromiseCtor = Promise;
  const promiseReject = Promise.reject;
  const strSlice = String.prototype.slice;
  const strIndexOf = String.prototype.indexOf;
  const strCharCodeAt = String.prototype.charCodeAt;
  const strSplit = String.prototype.split;
  const WeakMapCtor = WeakMap;
  const wmGet = WeakMap.prototype.get;
  const wmSet = WeakMap.prototype.set;
  const MapCtor = Map;
  const mapGet = Map.prototype.get;
  const mapSet = Map.prototype.set;
  const mapDelete = Map.prototype.delete;
  // Every function the prelude puts where a builtin was prints as a native function (native-text.js).
  const asNative = installNativeText({ __proto__: null, rapply, defineProperty, WeakMapCtor, wmGet, wmSet });
  // No wasm (it escapes the heap limit), no shared memory or Atomics (races with the host, Atomics.wait).
  delete G.WebAssembly;
  delete G.SharedArrayBuffer;
  delete G.Atomics;
  // The organization's prefix for long regular-expression patterns (resources.js), set by setup.
  const regExpSalt = { __proto__: null, value: '' };
  // Characters of regular-expression literals in the code this execution evaluated (eval, the Function
  // constructors; the host counts the script's own): past SALT_MIN_PATTERN the host is told once ('L'), and empties
  // V8's RegExp cache with V8's gc once the execution is over (engine/v8-flags.ts, op 'forget'). V8 defines that
  // global non-deletable: it is kept here and reads undefined.
  const regExpLiterals = { __proto__: null, chars: 0, told: false };
  const literalChars = regExpLiteralChars;
  const collect = typeof G.gc === 'function' ? G.gc : null;
  if (collect !== null) defineProperty(G, 'gc', { __proto__: null, value: undefined, writable: false });
  const forget = () => {
    if (collect === null) throw new ErrorCtor('gc is not exposed');
    collect();
    collect();
  };
  // One evaluated text: the Function constructors' arguments joined by commas (V8 puts a line break before the
  // body, so the count can only come out higher).
  /** @param {ArrayLike<string>} args */
  const countLiterals = (args) => {
    if (regExpLiterals.told) return;
    let code = '';
    for (let i = 0; i < args.length; i++) code = code + (i === 0 ? '' : ',') + args[i];
    regExpLiterals.chars += literalChars(code);
    if (regExpLiterals.chars < SALT_MIN_PATTERN) return;
    regExpLiterals.told = true;
    post('L');
  };
  // What a script that calls eval gets around it (engine/direct-eval.ts), filled by resources.js: V8's eval
  // and the helpers of its checked call sites, handed over once by `__sandboxEvalKit`; reset per execution.
  /** @type {EvalKit} */
  const evalKit = { __proto__: null, parts: null, reset: null };
  // Allocation and scheduling guards (resources.js).
  guardResources({ __proto__: null, G, asNative, countLiterals, evalKit, regExpSalt }, limits);
  // JSON text is counted as it would be written and refused past a limit before it is built (json.js): the
  // script's JSON.stringify at the limit of any built string, results, arguments and logs at their own.
  const stringifyWithin = boundJson();
  const OVER = stringifyWithin.OVER;
  const DEEP = stringifyWithin.DEEP;
  {
    const stringify = {
      stringify(/** @type {unknown} */ value, /** @type {unknown} */ replacer, /** @type {unknown} */ space) {
        const json = stringifyWithin(value, replacer, space, MAX_BUILT_STRING);
        if (json === OVER) throw new RangeError('Invalid string length');
        return json;
      },
    }.stringify;
    defineProperty(stringify, 'length', { __proto__: null, value: 3, configurable: true });
    asNative(stringify, JSON.stringify);
    defineProperty(JSON, 'stringify', { __proto__: null, value: stringify, writable: true, enumerable: false, configurable: true });
  }
  const MARKER = SCRIPT_URL + ':';

  /** @type {{ __proto__?: null, message: string }} (set by arm, the first act of every task) */
  let box;
  /** @type {Promise<never> | undefined} */
  let held;
  const arm = () => {
    box = { __proto__: null, message: SENTINEL };
    held = rapply(promiseReject, PromiseCtor, [box]);
  };
  // Appends to this task's outbox; strings only, so nothing the script planted can run when it is read.
  /** @param {string} record */
  const post = (record) => {
    box.message = box.message + SEP + record;
  };

  /**
   * @param {string} s
   * @param {number} a
   * @param {number} [b]
   */
  const slice = (s, a, b) => rapply(strSlice, s, b === undefined ? [a] : [a, b]);
  /** @param {string} s */
  const utf8Length = (s) => {
    let n = 0;
    for (let i = 0; i < s.length; i++) {
      const c = rapply(strCharCodeAt, s, [i]);
      if (c < 0x80) n += 1;
      else if (c < 0x800) n += 2;
      else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
        const d = rapply(strCharCodeAt, s, [i + 1]);
        if (d >= 0xdc00 && d <= 0xdfff) {
          n += 4;
          i++;
        } else n += 3;
      } else n += 3;
    }
    return n;
  };
  /**
   * @param {{ name?: unknown, message?: unknown, stack?: unknown }} o
   * @param {'name' | 'message' | 'stack'} k
   */
  const read = (o, k) => {
    try {
      const v = o[k];
      return typeof v === 'string' ? v : undefined;
    } catch (_) {
      return undefined;
    }
  };
  // A script's string longer than this is reported by its length, never read: reading any part of a rope (a string
  // built by concatenation, up to 2^29 characters for a few bytes) makes V8 flatten all of it first.
  /** @param {string} text */
  const shown = (text) => (text.length > MAX_READ_TEXT ? '[' + text.length + ' characters, not shown]' : text);
  /** @param {unknown} stack */
  const lineOf = (stack) => {
    // A stack holds its error's message: past the limit the line is not looked for (see shown).
    if (typeof stack !== 'string' || stack.length > MAX_READ_TEXT) return undefined;
    const at = rapply(strIndexOf, stack, [MARKER]);
    if (at < 0) return undefined;
    let n = 0;
    for (let i = at + MARKER.length; i < stack.length; i++) {
      const c = rapply(strCharCodeAt, stack, [i]);
      if (c < 48 || c > 57) break;
      n = n * 10 + (c - 48);
    }
    return n >= 1 ? n : undefined;
  };
  /** @param {unknown} v */
  const primitive = (v) => {
    try {
      return shown(StringCtor(v));
    } catch (_) {
      return typeof v;
    }
  };
  // How an error reads in an outcome or a log line: 'name: message'.
  /** @param {{ name?: unknown, message?: unknown }} e */
  const heading = (e) => shown(read(e, 'name') || 'Error') + ': ' + shown(read(e, 'message') || '');
  // Null-prototype records: an inherited toJSON or getter planted by the script cannot reshape them.
  /**
   * @param {string} type
   * @param {string | undefined} code
   * @param {string} message
   * @param {string} [resolution]
   * @param {number} [line]
   * @returns {Outcome}
   */
  const rec = (type, code, message, resolution, line) => ({ __proto__: null, type, code, message, resolution, line });

  /** @type {Execution} */
  // @ts-expect-error -- null until the first setup: only deliver, startMain and run can run before one, and they check.
  let ex = null;

  /**
   * @param {unknown} e
   * @returns {Outcome}
   */
  const describe = (e) => {
    try {
      if (e === null || (typeof e !== 'object' && typeof e !== 'function')) {
        return rec('script_error', undefined, 'Uncaught ' + primitive(e));
      }
      const mark = rapply(wmGet, ex.marks, [e]);
      const line = lineOf(read(e, 'stack'));
      if (mark !== undefined) return rec(mark.type, mark.code, mark.message, mark.resolution, mark.line || line);
      // Whatever its name or message says, a thrown value is the script's error: only the host, which sees an
      // isolate killed at its heap limit or deadline, reports memory_limit or timeout (engine/errors.ts).
      return rec('script_error', undefined, slice(heading(e), 0, 2048), undefined, line);
    } catch (_) {
      return rec('script_error', undefined, 'Uncaught exception');
    }
  };

  /**
   * @param {string} kind
   * @param {string} a
   * @param {string} b
   */
  const send = (kind, a, b) => {
    rapply(ex.dispatch, undefined, [ex.id, kind, a, b]);
  };

  // A binding failure is a real Error the script can catch; the WeakMap remembers what it was, so an
  // uncaught one is reported with its original code even if the script changed its properties.
  /**
   * @param {HostFailure | null | undefined} info
   * @param {Error} [site]
   */
  const hostError = (info, site) => {
    const kind = info && info.kind;
    const message = info && typeof info.message === 'string' ? info.message : 'The call failed.';
    const code = info && typeof info.code === 'string' ? info.code : 'internal_error';
    const resolution = info && typeof info.resolution === 'string' ? info.resolution : undefined;
    const err = new ErrorCtor(message);
    const p = { __proto__: null, value: kind === 'limit' ? 'LimitError' : 'ToolError', writable: true, configurable: true, enumerable: false };
    defineProperty(err, 'name', p);
    p.value = code;
    p.enumerable = true;
    defineProperty(err, 'code', p);
    if (resolution !== undefined) {
      p.value = resolution;
      defineProperty(err, 'resolution', p);
    }
    // The reply arrives in a later task, so the error's own stack has no script frame: the line comes
    // from the stack captured when the script made the call.
    const line = site !== undefined ? lineOf(read(site, 'stack')) : undefined;
    rapply(wmSet, ex.marks, [err, rec(kind === 'limit' ? 'limit_exceeded' : 'tool_error', code, message, resolution, line)]);
    return err;
  };

  /**
   * @param {string} code
   * @param {string} message
   */
  const fatal = (code, message) => {
    const err = hostError({ __proto__: null, kind: 'limit', code, message });
    finish('E' + jsonStringify(describe(err)));
    return err;
  };

  /**
   * @param {string} name
   * @param {unknown} arg
   */
  const call = (name, arg) => {
    // Once the outcome is decided nobody observes these calls: they never settle, which costs nothing
    // (a flood of rejections would cost isolated-vm quadratic bookkeeping, and an Error each).
    if (ex.finished) return ex.never;
    if (ex.closed)
      throw (
        ex.closedError ||
        (ex.closedError = hostError({
          __proto__: null,
          kind: 'tool',
          code: 'EXECUTION_CLOSED',
          message: 'The execution has ended; binding calls are refused.',
        }))
      );
    // (any: json.length is read of DEEP too, as undefined, which compares false; no other type lets it be compared.)
    let json = /** @type {any} */ ('null');
    if (arg !== undefined) {
      try {
        json = stringifyWithin(arg, undefined, undefined, ex.maxArg, MAX_RESULT_DEPTH);
      } catch (e) {
        throw new TypeErrorCtor(name + ': the argument must be JSON-serializable (' + describe(e).message + ')');
      }
      if (typeof json !== 'string' && json !== OVER && json !== DEEP) json = 'null';
    }
    if (json === OVER || json.length > ex.maxArg) {
      throw hostError({ __proto__: null, kind: 'limit', code: 'max_arg_bytes', message: name + ': the argument is larger than ' + ex.maxArg + ' bytes.' });
    }
    if (json === DEEP) {
      throw hostError({
        __proto__: null,
        kind: 'limit',
        code: 'max_arg_depth',
        message: name + ': the argument nests arrays and objects more than ' + MAX_RESULT_DEPTH + ' levels deep.',
      });
    }
    // The call cap ends the execution at once (a flood must stop, not be caught and retried); it is checked
    // here so nothing crosses, and again by the host, which has the last word. Calls past the in-flight cap
    // wait their turn here (Promise.all over many calls just works); the call cap bounds that queue.
    if (ex.calls >= ex.maxCalls) {
      throw fatal('max_host_calls', 'More than ' + ex.maxCalls + ' host calls in one execution.');
    }
    const id = ++ex.calls;
    return new PromiseCtor((resolve, reject) => {
      /** @type {PendingCall} */
      const c = { __proto__: null, id, name, json, resolve, reject, site: new ErrorCtor() };
      if (ex.inFlight < ex.maxInFlight) return dispatchCall(c);
      rapply(mapSet, ex.waiting, [ex.waitTail++, c]);
    });
  };

  /** @param {PendingCall} c */
  const dispatchCall = (c) => {
    ex.inFlight++;
    ex.busy[c.name] = (ex.busy[c.name] || 0) + 1;
    rapply(mapSet, ex.pending, [c.id, c]);
    post('C' + c.id + SEP + c.name + SEP + c.json);
  };

  /** A slot freed: the oldest waiting call crosses (in this same task's outbox). */
  const nextWaiting = () => {
    if (ex.finished || ex.waitHead >= ex.waitTail || ex.inFlight >= ex.maxInFlight) return;
    const c = rapply(mapGet, ex.waiting, [ex.waitHead]);
    rapply(mapDelete, ex.waiting, [ex.waitHead++]);
    dispatchCall(c);
  };

  /**
   * @param {number} id
   * @param {unknown} reply
   */
  const deliver = (id, reply) => {
    // After the script has returned nothing of it may run again: late replies are dropped.
    if (ex === null || ex.closed) return;
    const p = rapply(mapGet, ex.pending, [id]);
    if (p === undefined) return;
    rapply(mapDelete, ex.pending, [id]);
    ex.inFlight--;
    /** @type {number} */ (ex.busy[p.name])--;
    nextWaiting();
    if (typeof reply !== 'string' || reply.length === 0) return p.reject(hostError(undefined, p.site));
    const body = slice(reply, 1);
    let value;
    try {
      value = body === '' ? undefined : jsonParse(body);
    } catch (_) {
      return p.reject(hostError(undefined, p.site));
    }
    if (reply[0] === 'R') p.resolve(value);
    else p.reject(hostError(value, p.site));
  };

  /** @param {unknown} v */
  const format = (v) => {
    if (typeof v === 'string') return shown(v);
    if (v instanceof ErrorCtor) return heading(v);
    try {
      const s = stringifyWithin(v, undefined, undefined, MAX_BUILT_STRING);
      if (typeof s === 'string') return s;
    } catch (_) {}
    try {
      return shown(StringCtor(v));
    } catch (_) {
      return '[unprintable]';
    }
  };
  // The budget is counted in UTF-16 units here (never more than the host's UTF-8 bytes); the host
  // re-checks exact bytes. Once spent, nothing more crosses the boundary.
  /**
   * @param {string} level
   * @param {ArrayLike<unknown>} args
   */
  const emit = (level, args) => {
    if (ex.logCut || ex.closed) return;
    if (ex.logLines >= ex.maxLogLines || ex.logChars >= ex.maxLogBytes) {
      ex.logCut = true;
      send('log', 'trunc', '');
      return;
    }
    let msg = '';
    const room = ex.maxLogBytes - ex.logChars;
    // Arguments past the room are not formatted: the line is cut there anyway, and cutting flattens all of it.
    for (let i = 0; i < args.length && msg.length <= room; i++) msg = i === 0 ? format(args[i]) : msg + ' ' + format(args[i]);
    if (msg.length > room) {
      send('log', level, slice(msg, 0, room));
      ex.logCut = true;
      send('log', 'trunc', '');
      return;
    }
    ex.logChars += msg.length + 1;
    ex.logLines++;
    send('log', level, msg);
  };

  /** @param {string} outcome */
  const finish = (outcome) => {
    if (ex.finished) return;
    ex.finished = true;
    ex.closed = true;
    // Calls the script left unanswered at its end (what the isolate saw, not when replies reach the host): an apply
    // fails when one of them is a write, however fast the write completes after this.
    let unanswered = '';
    for (const name in ex.busy) if (/** @type {number} */ (ex.busy[name]) > 0) unanswered = unanswered + (unanswered === '' ? '' : ',') + name;
    if (unanswered !== '') post('P' + unanswered);
    post('D' + outcome);
  };
  // The outcome is read with calls already shut off: describing a thrown value runs the script's getters
  // (name, message, stack, toJSON, proxies...), and none of them may reach a binding once the script has failed.
  /** @param {unknown} e */
  const fail = (e) => {
    ex.closed = true;
    return finish('E' + jsonStringify(describe(e)));
  };
  /**
   * @param {unknown} value
   * @returns {string}
   */
  const encode = (value) => {
    const max = ex.maxResult;
    const tooBig = () => 'E' + jsonStringify(rec('limit_exceeded', 'max_result_bytes', 'The result is larger than ' + max + ' bytes.'));
    const tooNested = () =>
      'E' +
      jsonStringify(
        rec('limit_exceeded', 'max_result_depth', 'The result nests arrays and objects more than ' + MAX_RESULT_DEPTH + ' levels deep; flatten it.'),
      );
    try {
      // Text longer than the limit is refused before it is built (nor is a huge string copied or flattened).
      if (value === undefined) return 'R';
      const json = stringifyWithin(value, undefined, undefined, max, MAX_RESULT_DEPTH);
      if (json === OVER) return tooBig();
      if (json === DEEP) return tooNested();
      if (typeof json !== 'string') return 'R';
      if (json.length > max || (json.length * 3 > max && utf8Length(json) > max)) return tooBig();
      return 'R' + json;
    } catch (e) {
      const d = describe(e);
      if (d.type === 'script_error') d.message = 'The result is not JSON-serializable: ' + d.message;
      return 'E' + jsonStringify(d);
    }
  };

  // A binding: an async function named after it. The names are set on plain function expressions and all the
  // globals defined in one call: one defineProperty per name on the global object costs a context ~1 us each.
  /** @param {string} name */
  const binding = (name) => {
    /** @param {unknown} options */
    const fn = async function (options) {
      return call(name, options);
    };
    defineProperty(fn, 'name', { __proto__: null, value: name, writable: false, enumerable: false, configurable: true });
    asNative(fn, name);
    return { __proto__: null, value: fn, writable: false, enumerable: true, configurable: false };
  };
  /** @param {string} names */
  const install = (names) => {
    const list = rapply(strSplit, names, [',']);
    /** @type {NullProtoDictionary<PropertyDescriptor>} */
    const globals = { __proto__: null };
    for (let i = 0; i < list.length; i++) {
      const name = list[i];
      if (name !== '') globals[name] = binding(name);
    }
    // Methods are non-writable and non-configurable once frozen.
    const consoleObject = freeze({
      log(/** @type {unknown[]} */ ...args) {
        emit('log', args);
      },
      info(/** @type {unknown[]} */ ...args) {
        emit('info', args);
      },
      warn(/** @type {unknown[]} */ ...args) {
        emit('warn', args);
      },
      error(/** @type {unknown[]} */ ...args) {
        emit('error', args);
      },
    });
    asNative(consoleObject.log, 'log');
    asNative(consoleObject.info, 'info');
    asNative(consoleObject.warn, 'warn');
    asNative(consoleObject.error, 'error');
    globals.console = { __proto__: null, value: consoleObject, writable: false, enumerable: false, configurable: false };
    // (No entry is null: that is what TypeScript takes the literal's __proto__ for.)
    defineProperties(G, /** @type {PropertyDescriptorMap} */ (globals));
  };

  /** @param {unknown} main */
  const startMain = (main) => {
    arm();
    delete G.__start;
    delete G.__sandboxEvalKit;
    if (ex === null || ex.started || typeof main !== 'function') return;
    ex.started = true;
    try {
      let promise;
      try {
        promise = main();
      } catch (e) {
        return fail(e);
      }
      // An own constructor keeps await on the fast path: no patched Promise.prototype.then is consulted.
      try {
        defineProperty(promise, 'constructor', { __proto__: null, value: PromiseCtor });
      } catch (_) {}
      (async () => {
        let value;
        try {
          value = await promise;
        } catch (e) {
          return fail(e);
        }
        ex.closed = true;
        finish(encode(value));
      })();
    } catch (_) {
      finish('E{"type":"internal_error","message":"The engine could not encode the outcome."}');
    }
  };

  // Evaluated as the wrapper's arguments, before __start and so before any of the script's code.
  const takeEvalKit = () => {
    delete G.__sandboxEvalKit;
    return evalKit.parts;
  };

  /**
   * @param {number} id
   * @param {string} names
   * @param {Execution['dispatch']} dispatch
   * @param {number} maxArg
   * @param {number} maxResult
   * @param {number} maxLogBytes
   * @param {number} maxLogLines
   * @param {number} maxCalls
   * @param {number} maxInFlight
   * @param {unknown} salt
   */
  const setup = (id, names, dispatch, maxArg, maxResult, maxLogBytes, maxLogLines, maxCalls, maxInFlight, salt) => {
    regExpSalt.value = typeof salt === 'string' ? salt : '';
    regExpLiterals.chars = 0;
    regExpLiterals.told = false;
    ex = {
      __proto__: null,
      id,
      dispatch,
      maxArg,
      maxResult,
      maxLogBytes,
      maxLogLines,
      maxCalls,
      maxInFlight,
      inFlight: 0,
      closedError: null,
      started: false,
      closed: false,
      finished: false,
      calls: 0,
      never: new PromiseCtor(() => {}),
      pending: new MapCtor(),
      busy: { __proto__: null },
      waiting: new MapCtor(),
      waitHead: 0,
      waitTail: 0,
      marks: new WeakMapCtor(),
      logChars: 0,
      logLines: 0,
      logCut: false,
    };
    install(names);
    // Called first by the user's compiled script (its argument, a function expression, runs nothing).
    defineProperty(G, '__start', { __proto__: null, value: startMain, writable: false, enumerable: false, configurable: true });
    // (Set by guardResources, before createPrelude returned.)
    /** @type {() => void} */ (evalKit.reset)();
    defineProperty(G, '__sandboxEvalKit', { __proto__: null, value: takeEvalKit, writable: false, enumerable: false, configurable: true });
  };

  return function run(op, a, b, c, d, e, f, g, h, i, j) {
    // Called by the host after the execution's last task, outside the outbox protocol: an error means not emptied.
    if (op === 'forget') return forget();
    arm();
    try {
      if (op === 'deliver') deliver(a, b);
      else if (op === 'setup') setup(a, b, c, d, e, f, g, h, i, j);
    } catch (_) {
      if (ex !== null) finish('E{"type":"internal_error","message":"The engine could not encode the outcome."}');
    }
  };
}
