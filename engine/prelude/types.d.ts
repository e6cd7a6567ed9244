// The types the prelude's modules (engine/prelude/*.js) hand each other and receive from the host, for their JSDoc
// (tsc -p engine/prelude). Declarations only: nothing here exists at run time, and the bundle never sees this file.
import type { INTL_BYTES } from '../prelude-intl.ts';

/** The frozen null-prototype record of values engine/prelude.ts calls createPrelude with. */
export interface Limits {
  readonly maxBuiltString: number;
  readonly maxReadText: number;
  readonly maxDynamicSource: number;
  readonly saltMinPattern: number;
  readonly maxResultDepth: number;
  readonly maxIntlInput: number;
  readonly intlBytes: { readonly [K in keyof typeof INTL_BYTES]: number };
  readonly scriptUrl: string;
  readonly sentinel: string;
  readonly sep: string;
}

/** The host's dispatcher (an isolated-vm Callback, engine/slot.ts): `dispatch(execId, 'log', level, message)`. */
export type Dispatch = (execId: number, kind: string, a: string, b: string) => void;

/**
 * The function createPrelude returns, which the host calls (engine/run.ts, engine/slot.ts): `run('forget')`,
 * `run('deliver', callId, reply)`, or `run('setup', execId, names, dispatch, maxArgBytes, maxResultBytes, maxLogBytes,
 * maxLogLines, maxHostCalls, maxInFlight, salt)`; a call for another operation passes fewer of them.
 */
export type Run = (op: string, a: number, b: string, c: Dispatch, d: number, e: number, f: number, g: number, h: number, i: number, j: string) => void;

/**
 * The global object as the prelude finds it, before any script runs: the builtins it captures, and any other key
 * (the ones it deletes, the ones a setup defines).
 */
export interface Global {
  [key: string]: unknown;
  Array: ArrayConstructor;
  ArrayBuffer: ArrayBufferConstructor;
  BigInt: BigIntConstructor;
  Date: DateConstructor;
  Function: FunctionConstructor;
  /** Intl's constructors, read and replaced by name (and V8's v8BreakIterator, deleted). */
  Intl?: { [name: string]: unknown };
  Number: NumberConstructor;
  Object: ObjectConstructor;
  RegExp: RegExpConstructor;
  String: StringConstructor;
  Uint8Array: Uint8ArrayConstructor;
  /** The builtin when the prelude captures it; a script may replace it later (dynamic-code.js reads it again then). */
  eval: typeof eval;
}

/**
 * Any value a script can hand a guard (its arguments, its receiver, what its objects' properties give). An object is
 * seen as a Dict: JavaScript lets any key of it be read (a getter or a proxy trap may run) and gives another Value.
 * Unlike `unknown`, a union that a typeof check or an assignment narrows. The guards' own objects, which the library
 * types by their interfaces, are not Values.
 */
export type Value = string | number | bigint | boolean | symbol | Dict | (Dict & Function) | null | undefined;

/** What ToPrimitive gives. */
export type Primitive = string | number | bigint | boolean | symbol | null | undefined;

/** An object whose properties are read (or replaced) by key: any key can be read, and gives a Value. */
export interface Dict {
  [key: PropertyKey]: Value;
  /** Whatever the object or its prototypes hold (the library's Object says a Function: one of the guards' may be). */
  constructor: Value | Function;
}

/**
 * A null-prototype record used as a list (`{ __proto__: null, length: 0 }`), so that nothing a script puts on
 * Array.prototype or Object.prototype sees or keeps its entries.
 */
export interface NullProtoList<T> {
  __proto__?: null;
  length: number;
  [index: number]: T;
}

/**
 * A null-prototype record used as a dictionary (`{ __proto__: null }`). TypeScript reads that `__proto__` as an entry
 * whose value is null (it is the record's prototype, and no entry), so the entries' type admits null.
 */
export interface NullProtoDictionary<V> {
  [key: string]: V | null;
}

/**
 * The descriptor of an accessor that is there, with its getter: one V8 defines on a builtin (RegExp.prototype.source,
 * ArrayBuffer.prototype.byteLength, …), read before any script runs, or an object literal's own getter.
 */
export type Accessor<T> = PropertyDescriptor & { get(this: unknown): T };

/** What %TypedArray%.prototype[Symbol.toStringTag] gives for a typed array. */
export type TypedArrayName =
  | 'Int8Array'
  | 'Uint8Array'
  | 'Uint8ClampedArray'
  | 'Int16Array'
  | 'Uint16Array'
  | 'Int32Array'
  | 'Uint32Array'
  | 'Float16Array'
  | 'Float32Array'
  | 'Float64Array'
  | 'BigInt64Array'
  | 'BigUint64Array';

/** asNative (native-text.js): registers fn to print as the native `original` (a builtin, or a name), and returns fn. */
export type AsNative = <F extends Function>(fn: F, original: Function | string) => F;

/** An execution's outcome, or what a thrown value or a binding's failure is reported as (core.js `rec`). */
export interface Outcome {
  __proto__?: null;
  type: string;
  code: string | undefined;
  message: string;
  resolution: string | undefined;
  line: number | undefined;
}

/** A binding's failure, as the host's reply gives it ('E' + JSON) or the prelude makes one (core.js `hostError`). */
export interface HostFailure {
  __proto__?: null;
  kind?: unknown;
  code?: unknown;
  message?: unknown;
  resolution?: unknown;
}

/** A binding call (core.js), from when the script makes it until its reply is delivered. */
export interface PendingCall {
  __proto__?: null;
  id: number;
  name: string;
  /** Its argument's JSON text. */
  json: string;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
  /** Made when the script made the call: its stack gives the script's line. */
  site: Error;
}

/** The execution a setup starts (core.js `ex`): its limits, its calls and its logs. */
export interface Execution {
  __proto__?: null;
  id: number;
  dispatch: Dispatch;
  maxArg: number;
  maxResult: number;
  maxLogBytes: number;
  maxLogLines: number;
  maxCalls: number;
  maxInFlight: number;
  inFlight: number;
  closedError: Error | null;
  started: boolean;
  closed: boolean;
  finished: boolean;
  calls: number;
  /** What a call returns once the outcome is decided: it never settles. */
  never: Promise<unknown>;
  pending: Map<number, PendingCall>;
  /** Calls in flight, by binding name. */
  busy: NullProtoDictionary<number>;
  waiting: Map<number, PendingCall>;
  waitHead: number;
  waitTail: number;
  /** What each binding failure the prelude made was, whatever the script did to it since. */
  marks: WeakMap<object, Outcome>;
  logChars: number;
  logLines: number;
  logCut: boolean;
}

/** What core.js hands installNativeText (native-text.js), captured before anything else runs. */
export interface NativeTextScope {
  __proto__?: null;
  rapply: typeof Reflect.apply;
  defineProperty: typeof Object.defineProperty;
  WeakMapCtor: WeakMapConstructor;
  wmGet: typeof WeakMap.prototype.get;
  wmSet: typeof WeakMap.prototype.set;
}

/** The wrapper's part of a script that calls eval (engine/direct-eval.ts), filled by guardDynamicCode (dynamic-code.js). */
export interface EvalKit {
  __proto__?: null;
  /** V8's eval and the checked call sites' helpers, which `__sandboxEvalKit` hands the wrapper once. */
  parts: readonly Function[] | null;
  /** Forgets the previous execution's tickets; called by every setup. */
  reset: (() => void) | null;
}

/** The organization's prefix for long regular-expression patterns, set by each setup (regexp.js). */
export interface RegExpSalt {
  __proto__?: null;
  value: string;
}

/** What core.js hands guardResources (resources.js). */
export interface ResourceScope {
  __proto__?: null;
  G: Global;
  asNative: AsNative;
  countLiterals: (args: ArrayLike<string>) => void;
  evalKit: EvalKit;
  regExpSalt: RegExpSalt;
}

/** A replaced method's body: called with the method's receiver and arguments, whatever a script passed. */
export type MethodBody = (this: Value, ...args: Value[]) => unknown;

/**
 * What guardResources (resources.js) captured and shares with the guards it installs, each taking what it uses. The
 * last six are added by the guards that make them (join.js, regexp.js), before the guards that use them run.
 */
export interface Kit extends ResourceScope {
  rapply: typeof Reflect.apply;
  rconstruct: typeof Reflect.construct;
  defineProperty: typeof Object.defineProperty;
  getOwnPropertyDescriptor: typeof Object.getOwnPropertyDescriptor;
  getPrototypeOf: typeof Object.getPrototypeOf;
  setPrototypeOf: typeof Object.setPrototypeOf;
  freeze: typeof Object.freeze;
  arrayFrom: typeof Array.from;
  StringCtor: StringConstructor;
  RangeErrorCtor: RangeErrorConstructor;
  TypeErrorCtor: TypeErrorConstructor;
  readOnlyPrototype: (fn: Function, proto: unknown) => void;
  tooLong: (what: string, max: number) => RangeError;
  replaceMethod: (owner: object, name: string | symbol, length: number, fn: MethodBody) => void;
  wrap: (owner: Dict, name: string, check: (self: unknown, args: unknown[]) => unknown[]) => void;
  text: (v: unknown, what: string, max: number) => string;
  toText: (v: unknown) => string;
  trunc: (x: number) => number;
  floor: (x: number) => number;
  toLength: (n: number) => number;
  S: String;
  receiverText: (self: unknown, name: string) => string;
  tooBig: () => RangeError;
  strRepeat: typeof String.prototype.repeat;
  mapGetS: typeof Map.prototype.get;
  strIndexOfS: typeof String.prototype.indexOf;
  strSliceS: typeof String.prototype.slice;
  printed: (o: unknown) => string;
  ObjectCtor: ObjectConstructor;
  notCallable: (f: unknown) => TypeError;
  isRegExp: (v: unknown) => v is RegExp;
  methodOf: (v: NonNullable<Value>, key: PropertyKey, what?: string) => Function | undefined;
  reProto: RegExp;
  requireGlobal: (rx: Value, name: string) => void;
}

/** What guardResources hands guardIntl (intl.js), from what it captured first. */
export type IntlScope = Pick<
  Kit,
  | '__proto__'
  | 'G'
  | 'rapply'
  | 'rconstruct'
  | 'defineProperty'
  | 'getOwnPropertyDescriptor'
  | 'getPrototypeOf'
  | 'RangeErrorCtor'
  | 'TypeErrorCtor'
  | 'tooLong'
  | 'asNative'
  | 'readOnlyPrototype'
> & {
  /** The original ArrayBuffer (buffers.js), for the ballasts. */
  AB: ArrayBufferConstructor;
};
