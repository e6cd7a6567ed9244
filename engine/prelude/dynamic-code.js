// The prelude guards on dynamic code (eval, direct evals, the Function constructors): a guard of guardResources
// (resources.js). Measured (in-process pool, server RSS, 64 MB isolate): eval / new Function of a 7.8 MB object
// literal took 219 MB, memory_limit. The source is capped at MAX_DYNAMIC_SOURCE (prelude-resources.ts).
/** @import { Kit, Limits, Value } from './types.js' */
/** @typedef {'Function' | 'AsyncFunction' | 'GeneratorFunction' | 'AsyncGeneratorFunction'} FunctionName */
/** @typedef {(args: IArguments, newTarget: Function | undefined) => Function} MakeFunction */

/**
 * Installs the guard; `kit` holds what guardResources captured and shares (resources.js), `limits` the caps.
 * @param {Kit} kit
 * @param {Limits} limits
 */
export function guardDynamicCode(kit, limits) {
  const {
    G,
    asNative,
    countLiterals,
    evalKit,
    rapply,
    rconstruct,
    defineProperty,
    getOwnPropertyDescriptor,
    getPrototypeOf,
    setPrototypeOf,
    freeze,
    readOnlyPrototype,
    tooLong,
    TypeErrorCtor,
  } = kit;
  const MAX_CODE = limits.maxDynamicSource;
  // Parsing a large source allocates outside the heap limit (isolated-vm lets eval through up to 8 MB: see the
  // docs/security.md's measurements). The global eval is indirect: eval sees the global scope, not the caller's; a script's
  // own eval(...) calls stay direct, their argument checked first (the kit below, direct-eval.ts).
  // Every argument is converted first, in order, as the Function constructors do, then their total is checked.
  /** @param {unknown} v */
  const codeString = (v) => (typeof v === 'string' ? v : `${v}`);
  /**
   * @param {IArguments | string[]} args a Function constructor's arguments (converted in place), or eval's source
   * @param {string} what
   */
  const codeText = (args, what) => {
    let total = 0;
    for (let i = 0; i < args.length; i++) args[i] = codeString(args[i]);
    for (let i = 0; i < args.length; i++) {
      total += args[i].length;
      if (total > MAX_CODE) throw tooLong(what, MAX_CODE);
    }
    countLiterals(args);
    return args;
  };
  const evalOriginal = G.eval;
  defineProperty(G, 'eval', {
    __proto__: null,
    writable: true,
    enumerable: false,
    configurable: true,
    value: asNative(
      {
        eval(/** @type {Value} */ x) {
          return typeof x === 'string' ? evalOriginal(codeText([x], 'eval')[0]) : x;
        },
      }.eval,
      evalOriginal,
    ),
  });
  // A script's own direct evals (engine/direct-eval.ts): each call site's first argument goes through evalSource
  // after V8 read the callee, before it compiles. A source over the cap is refused as eval refuses it; one that could
  // name the bound eval (it spells eval, in letters or escapes), and any argument once the
  // script replaced the global eval, is left to __sandboxEvalIndirect(n): the source the direct eval then runs is
  // that one call, which evaluates it indirectly (or calls the script's eval with it, as V8 would have).
  {
    const guardedEval = G.eval;
    const MapCtor = Map;
    const mapGetE = Map.prototype.get;
    const mapSetE = Map.prototype.set;
    const mapDeleteE = Map.prototype.delete;
    const indexOfE = G.String.prototype.indexOf;
    const charCodeAtE = G.String.prototype.charCodeAt;
    // Part of an identifier, as SPELLS_EVAL's boundaries count it: [A-Za-z0-9_$].
    /** @param {number} c */
    const wordChar = (c) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36;
    /** @param {number} c */
    const hexValue = (c) => (c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 70 ? c - 55 : c >= 97 && c <= 102 ? c - 87 : -1);
    // The index after the letter code at index at, written as itself or as a unicode escape (\uXXXX, \u{X…}), or -1.
    /**
     * @param {string} x
     * @param {number} at
     * @param {number} code
     */
    const letterEnd = (x, at, code) => {
      const c = rapply(charCodeAtE, x, [at]);
      if (c === code) return at + 1;
      if (c !== 92 || rapply(charCodeAtE, x, [at + 1]) !== 117) return -1;
      let value = 0;
      if (rapply(charCodeAtE, x, [at + 2]) === 123) {
        let i = at + 3;
        for (let h; (h = hexValue(rapply(charCodeAtE, x, [i]))) !== -1 && value <= code; i++) value = value * 16 + h;
        return value === code && rapply(charCodeAtE, x, [i]) === 125 ? i + 1 : -1;
      }
      for (let i = at + 2; i < at + 6; i++) {
        const h = hexValue(rapply(charCodeAtE, x, [i]));
        if (h === -1) return -1;
        value = value * 16 + h;
      }
      return value === code ? at + 6 : -1;
    };
    /**
     * @param {string} x
     * @param {number} at
     */
    const spellsEvalAt = (x, at) => {
      if (at > 0 && wordChar(rapply(charCodeAtE, x, [at - 1]))) return false;
      // e, v, a, l (no array iteration: the script may have replaced Array.prototype[Symbol.iterator]).
      let i = letterEnd(x, at, 101);
      if (i !== -1) i = letterEnd(x, i, 118);
      if (i !== -1) i = letterEnd(x, i, 97);
      if (i !== -1) i = letterEnd(x, i, 108);
      return i !== -1 && (i === x.length || !wordChar(rapply(charCodeAtE, x, [i])));
    };
    // Whether a source may name eval, in letters or escapes (a string or a property that merely says it counts too,
    // which only costs that direct eval its scope): SPELLS_EVAL in direct-eval.ts, asked without a regular
    // expression, since a match would change the script's RegExp.lastMatch and the other legacy statics.
    /** @param {string} x */
    const namesEval = (x) => {
      if (rapply(indexOfE, x, ['\\u']) !== -1) {
        for (let at = 0; at < x.length; at++) if (spellsEvalAt(x, at)) return true;
        return false;
      }
      for (let at = rapply(indexOfE, x, ['eval']); at !== -1; at = rapply(indexOfE, x, ['eval', at + 1])) {
        if (spellsEvalAt(x, at)) return true;
      }
      return false;
    };
    /** @type {Map<number, Value>} */
    let tickets = new MapCtor();
    let ticket = 0;
    /** @param {Value} x */
    const later = (x) => {
      ticket++;
      rapply(mapSetE, tickets, [ticket, x]);
      return '__sandboxEvalIndirect(' + ticket + ')';
    };
    /** @param {Value} x */
    const evalSource = (x) => {
      if (G.eval !== guardedEval) return later(x);
      if (typeof x !== 'string') return x;
      codeText([x], 'eval');
      return namesEval(x) ? later(x) : x;
    };
    /** @param {number} n */
    const evalIndirect = (n) => {
      const x = rapply(mapGetE, tickets, [n]);
      rapply(mapDeleteE, tickets, [n]);
      const current = G.eval;
      if (current === guardedEval) return typeof x === 'string' ? evalOriginal(x) : x;
      // The script wrote `eval(…)`: a replacement that cannot be called fails as V8 words it for that call.
      if (typeof current !== 'function') throw new TypeErrorCtor('eval is not a function');
      return current(x);
    };
    evalKit.parts = freeze([evalOriginal, evalSource, () => G.eval, evalIndirect]);
    evalKit.reset = () => {
      tickets = new MapCtor();
      ticket = 0;
    };
  }
  // Each constructor as V8 has it: length 1, its name, its prototype (non-writable), the prototype's constructor
  // with the original's attributes, and AsyncFunction, GeneratorFunction and AsyncGeneratorFunction inheriting
  // from Function.
  // Each a function of the builtin's name and length (one named parameter): nothing to redefine per context.
  /** @type {{ __proto__?: null } & { [K in FunctionName]: (make: MakeFunction) => (body: Value) => Function }} */
  const NAMED = {
    __proto__: null,
    Function: (make) =>
      function Function(body) {
        return make(arguments, new.target);
      },
    AsyncFunction: (make) =>
      function AsyncFunction(body) {
        return make(arguments, new.target);
      },
    GeneratorFunction: (make) =>
      function GeneratorFunction(body) {
        return make(arguments, new.target);
      },
    AsyncGeneratorFunction: (make) =>
      function AsyncGeneratorFunction(body) {
        return make(arguments, new.target);
      },
  };
  /**
   * @param {Function} ctor one of the four constructors
   * @param {Function} [parent]
   */
  const guardConstructor = (ctor, parent) => {
    // (One of the four constructors below, by name; their prototypes' own constructor is V8's.)
    const name = /** @type {FunctionName} */ (ctor.name);
    const guarded = NAMED[name]((args, newTarget) => rconstruct(ctor, codeText(args, name), newTarget === undefined ? guarded : newTarget));
    asNative(guarded, ctor);
    readOnlyPrototype(guarded, ctor.prototype);
    const constructor = /** @type {PropertyDescriptor} */ (getOwnPropertyDescriptor(ctor.prototype, 'constructor'));
    constructor.value = guarded;
    defineProperty(ctor.prototype, 'constructor', constructor);
    if (parent !== undefined) setPrototypeOf(guarded, parent);
    return guarded;
  };
  const FunctionGuarded = guardConstructor(G.Function);
  defineProperty(G, 'Function', { __proto__: null, value: FunctionGuarded, writable: true, enumerable: false, configurable: true });
  guardConstructor(getPrototypeOf(async function () {}).constructor, FunctionGuarded);
  guardConstructor(getPrototypeOf(function* () {}).constructor, FunctionGuarded);
  guardConstructor(getPrototypeOf(async function* () {}).constructor, FunctionGuarded);
}
