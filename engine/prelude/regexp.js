// The prelude guards on compiling regular expressions from strings (the constructor, compile, match, matchAll,
// search, and the species of split and matchAll), and the per-organization salt of long patterns: a guard of
// guardResources (resources.js). Measured in a host process (its RSS, 64 MB isolate): new RegExp of a 64 M-char
// source took 500 MB, result ok; of 2^20 words joined by '|' (10 M chars) 893 MB, a fatal out-of-memory error
// that killed the host. The source is capped at MAX_DYNAMIC_SOURCE; patterns of SALT_MIN_PATTERN characters or
// more are salted (prelude-resources.ts).
/** @import { Accessor, Dict, Kit, Limits, NullProtoList, Value } from './types.js' */

/**
 * Installs the guard; `kit` holds what guardResources captured and shares (resources.js), `limits` the caps. Returns
 * what later guards use.
 * @param {Kit} kit
 * @param {Limits} limits
 */
export function guardRegExp(kit, limits) {
  const {
    G,
    asNative,
    regExpSalt,
    rapply,
    rconstruct,
    defineProperty,
    getOwnPropertyDescriptor,
    getPrototypeOf,
    StringCtor,
    TypeErrorCtor,
    readOnlyPrototype,
    replaceMethod,
    toText,
    S,
    printed,
    notCallable,
  } = kit;
  const MAX_CODE = limits.maxDynamicSource;
  const SALT_MIN_PATTERN = limits.saltMinPattern;
  // A regular expression is code too: parsing and compiling one takes about 128 bytes per source character
  // outside the heap (a 10 M-character alternation ended a host process in a fatal out-of-memory error). Every
  // way a script can have a source compiled gets the eval limit: the constructor, compile, and the string methods
  // that build one from a string. A RegExp object as the pattern keeps its source, which was checked when it was
  // made (and literals are part of the script, whose own size is capped).
  const RE = G.RegExp;
  const reProto = RE.prototype;
  // (RegExp.prototype.source: V8's own accessor.)
  const sourceOf = /** @type {Accessor<string>} */ (getOwnPropertyDescriptor(reProto, 'source')).get;
  const SyntaxErrorCtor = SyntaxError;
  const ProxyCtor = Proxy;
  // A brand check (the source getter throws for anything but a RegExp), paid only by objects.
  /**
   * @param {unknown} v
   * @returns {v is RegExp}
   */
  const isRegExp = (v) => {
    if (v === null || typeof v !== 'object' || v === reProto) return false;
    try {
      rapply(sourceOf, v, []);
      return true;
    } catch (_) {
      return false;
    }
  };
  const symMatch = Symbol.match;
  /** @param {string} p */
  const checkedSource = (p) => {
    if (p.length > MAX_CODE)
      throw new SyntaxErrorCtor('Invalid regular expression: a source longer than ' + MAX_CODE + ' characters is refused in the sandbox.');
    return p;
  };
  // The organization's prefix for long patterns (SALT_MIN_PATTERN in prelude-resources.ts), set by each execution.
  /** @param {string} p */
  const salts = (p) => p.length >= SALT_MIN_PATTERN && regExpSalt.value !== '';
  /** @param {string} p */
  const salted = (p) => (salts(p) ? regExpSalt.value + p : p);
  const strStartsWith = String.prototype.startsWith;
  const strSliceR = String.prototype.slice;
  // What a regular expression shows of its pattern (its source getter): without the prefix.
  /** @param {string} source */
  const unsalt = (source) => {
    const salt = regExpSalt.value;
    return salt !== '' && rapply(strStartsWith, source, [salt]) ? rapply(strSliceR, source, [salt.length]) : source;
  };
  // Compiles a checked pattern string, salted when long. A salted pattern is invalid exactly when the pattern is:
  // V8's own error for it comes from compiling it as given (an invalid pattern is never cached).
  /**
   * @template T
   * @param {string} p
   * @param {(source: string) => T} compile
   * @returns {T}
   */
  const compiled = (p, compile) => {
    const s = salted(p);
    if (s === p) return compile(p);
    try {
      return compile(s);
    } catch (_) {
      return compile(p);
    }
  };
  /**
   * @param {string} p
   * @param {string | undefined} f
   * @param {Function} nt
   * @returns {RegExp}
   */
  const compiledWith = (p, f, nt) => compiled(p, (source) => rconstruct(RE, [source, f], nt));
  // The flags a RegExp was made with ([[OriginalFlags]]), read through the builtin flag getters, which nobody can
  // observe, in the order V8's flags getter writes them.
  /** @type {NullProtoList<string>} */
  const flagLetters = { __proto__: null, length: 0 };
  /** @type {NullProtoList<(this: unknown) => boolean>} */
  const flagReaders = { __proto__: null, length: 0 };
  for (const [letter, name] of [
    ['d', 'hasIndices'],
    ['g', 'global'],
    ['i', 'ignoreCase'],
    ['m', 'multiline'],
    ['s', 'dotAll'],
    ['u', 'unicode'],
    ['v', 'unicodeSets'],
    ['y', 'sticky'],
  ]) {
    const d = getOwnPropertyDescriptor(reProto, name);
    if (d !== undefined && typeof d.get === 'function') {
      flagLetters[flagLetters.length++] = letter;
      flagReaders[flagReaders.length++] = d.get;
    }
  }
  /** @param {RegExp} rx */
  const originalFlags = (rx) => {
    let f = '';
    for (let i = 0; i < flagReaders.length; i++) if (rapply(flagReaders[i], rx, [])) f += flagLetters[i];
    return f;
  };
  // IsRegExp: Symbol.match when the object has one, its brand otherwise.
  /**
   * @param {Value} v
   * @returns {v is Dict} (true: an object)
   */
  const isRegExpLike = (v) => {
    if (v === null || (typeof v !== 'object' && typeof v !== 'function')) return false;
    const m = v[symMatch];
    return m !== undefined ? !!m : isRegExp(v);
  };
  // RegExpAlloc reads newTarget's prototype once, after the pattern's source and flags are read and before they are
  // converted: so does allocFor, here, and the original is handed either itself (newTarget the constructor, its
  // objects keeping V8's fast map) or alloc, a function of ours with that prototype (a non-object prototype gives
  // the realm's RegExp.prototype, as GetPrototypeFromConstructor does).
  const alloc = function () {};
  /** @param {Function} nt */
  const allocFor = (nt) => {
    if (nt === RegExpGuard || nt === RE) return RE;
    const p = nt.prototype;
    alloc.prototype = p !== null && (typeof p === 'object' || typeof p === 'function') ? p : reProto;
    return alloc;
  };
  // An argument of the call, undefined when it was not given (a missing index of the arguments array is never
  // read: it would be looked up on Array.prototype, where a script may have put a getter).
  /**
   * @template T
   * @param {ArrayLike<T>} args
   * @param {number} i
   */
  const arg = (args, i) => (i < args.length ? args[i] : undefined);
  // The constructor's steps (IsRegExp, the same-constructor shortcut, the pattern's source and flags), done once
  // here, so that the original receives strings and runs no script code a second time; a RegExp pattern's source
  // was checked when it was made.
  /**
   * @param {Value} pattern
   * @param {Value} flags
   * @param {Function | undefined} newTarget
   * @returns {object}
   */
  const construct = (pattern, flags, newTarget) => {
    const patternIsRegExp = isRegExpLike(pattern);
    if (newTarget === undefined && patternIsRegExp && flags === undefined && pattern.constructor === RegExpGuard) return pattern;
    const nt = newTarget === undefined ? RegExpGuard : newTarget;
    if (isRegExp(pattern)) {
      const source = rapply(sourceOf, pattern, []);
      return rconstruct(RE, [source, flags === undefined ? originalFlags(pattern) : flags], allocFor(nt));
    }
    let p = pattern;
    let f = flags;
    if (patternIsRegExp) {
      p = pattern.source;
      if (flags === undefined) f = pattern.flags;
    }
    const target = allocFor(nt);
    p = p === undefined ? '' : toText(p);
    if (f !== undefined) f = toText(f);
    return compiledWith(checkedSource(p), f, target);
  };
  // The constructor is a Proxy of the original: its name, length, prototype and statics (the legacy $1-$9, input,
  // lastMatch and the rest, each an accessor) are the original's own, in V8's order, with nothing copied into every
  // context (copying the statics cost each context about 20 us); its calls and constructions take the steps above.
  const RegExpGuard = new ProxyCtor(RE, {
    __proto__: null,
    apply: (_, _self, args) => construct(arg(args, 0), arg(args, 1), undefined),
    construct: (_, args, newTarget) => construct(arg(args, 0), arg(args, 1), newTarget),
  });
  asNative(RegExpGuard, RE);
  reProto.constructor = RegExpGuard;
  G.RegExp = RegExpGuard;
  defineProperty(reProto, 'source', {
    __proto__: null,
    enumerable: false,
    configurable: true,
    get: asNative(
      /** @type {Accessor<string>} */ (
        getOwnPropertyDescriptor(
          {
            get source() {
              return unsalt(rapply(sourceOf, this, []));
            },
          },
          'source',
        )
      ).get,
      sourceOf,
    ),
  });
  const reCompile = reProto.compile;
  // Annex B's compile: the receiver is checked first (the original throws for anything but a RegExp before it
  // reads its arguments), then the pattern and flags are converted once, in order.
  replaceMethod(reProto, 'compile', 2, function (pattern, flags) {
    if (!isRegExp(this) || isRegExp(pattern)) return rapply(reCompile, this, [pattern, flags]);
    const p = pattern === undefined ? '' : toText(pattern);
    const f = flags === undefined ? undefined : toText(flags);
    return compiled(checkedSource(p), (source) => rapply(reCompile, this, [source, f]));
  });
  // GetMethod, with V8's message for a value that is not callable.
  // What V8 prints of a value in a message, without running any of its code.
  /** @param {Value} v */
  const printedValue = (v) =>
    v !== null && (typeof v === 'object' || typeof v === 'function') ? printed(v) : typeof v === 'symbol' ? StringCtor(v) : toText(v);
  /** @type {Kit['methodOf']} */
  const methodOf = (v, key, what) => {
    // (A primitive's properties are read as its wrapper's: its prototype's.)
    const f = /** @type {Dict} */ (v)[key];
    if (f === undefined || f === null) return undefined;
    if (typeof f !== 'function') {
      throw what === undefined
        ? notCallable(f)
        : new TypeErrorCtor("'" + printedValue(f) + "' returned for property '" + what + "' of object '" + printedValue(v) + "' is not a function");
    }
    return f;
  };
  const strIncludes = S.includes;
  // matchAll and replaceAll refuse a RegExp (by IsRegExp) without the g flag, before they look for its method.
  /** @type {Kit['requireGlobal']} */
  const requireGlobal = (rx, name) => {
    if (!isRegExpLike(rx)) return;
    const flags = rx.flags;
    if (flags === undefined || flags === null) {
      throw new TypeErrorCtor(
        name === 'matchAll'
          ? 'The .flags property of the argument to String.prototype.matchAll cannot be null or undefined'
          : 'String.prototype.' + name + ' called on null or undefined',
      );
    }
    if (!rapply(strIncludes, toText(flags), ['g'])) throw new TypeErrorCtor('String.prototype.' + name + ' called with a non-global RegExp argument');
  };
  // match, matchAll and search call the method of their symbol on anything but undefined or null that has one;
  // otherwise they make a RegExp of the pattern (RegExpCreate, with no flags or 'g' for matchAll), here, checked
  // and salted when long, and invoke that method on it, as the original would.
  for (const [name, symbol, flags] of /** @type {[string, typeof Symbol.match | typeof Symbol.matchAll | typeof Symbol.search, string | undefined][]} */ ([
    ['match', Symbol.match, undefined],
    ['matchAll', Symbol.matchAll, 'g'],
    ['search', Symbol.search, undefined],
  ])) {
    // V8 words a method that is not callable one way for matchAll, another for match and search.
    const what = name === 'matchAll' ? undefined : name === 'match' ? 'Symbol(Symbol.match)' : 'Symbol(Symbol.search)';
    replaceMethod(S, name, 1, function (regexp) {
      if (this === null || this === undefined) throw new TypeErrorCtor('String.prototype.' + name + ' called on null or undefined');
      if (regexp !== undefined && regexp !== null) {
        if (name === 'matchAll') requireGlobal(regexp, name);
        const method = methodOf(regexp, symbol, what);
        if (method !== undefined) return rapply(method, regexp, [this]);
      }
      const s = toText(this);
      const rx = compiledWith(checkedSource(regexp === undefined ? '' : toText(regexp)), flags, RE);
      return rx[symbol](s);
    });
  }

  // Symbol.split and Symbol.matchAll make their matcher with the receiver's species constructor, which is the
  // original RegExp, uncapped, when the receiver has no constructor or the constructor no species: the source of a
  // RegExp-like object would be compiled whatever its length (130 KB in the sandbox before this). A real RegExp's
  // source was checked when it was made. Any other receiver reaches the original through a stand-in of ours that
  // reads each property from it where the original would (constructor, its species, flags, lastIndex), and whose
  // species makes the matcher from the receiver itself, with this RegExp in place of the original.
  const symSpecies = Symbol.species;
  const probeConstruct = { __proto__: null, construct: () => probeConstruct };
  /**
   * @param {Value} f
   * @returns {f is Dict & Function}
   */
  const isConstructor = (f) => {
    if (f === null || (typeof f !== 'object' && typeof f !== 'function')) return false;
    try {
      // @ts-expect-error -- IsConstructor of any object: constructing a Proxy of it answers (no type says "maybe a constructor").
      new new ProxyCtor(f, probeConstruct)();
      return true;
    } catch (_) {
      return false;
    }
  };
  for (const symbol of /** @type {const} */ ([Symbol.split, Symbol.matchAll])) {
    const original = reProto[symbol];
    replaceMethod(reProto, symbol, original.length, function (string, limit) {
      const rx = this;
      if (rx === null || (typeof rx !== 'object' && typeof rx !== 'function') || isRegExp(rx)) return rapply(original, rx, [string, limit]);
      /** @type {Value | Function} */
      let ctor;
      /** @type {Function} */
      let maker;
      /**
       * @param {unknown} _
       * @param {Value} flags
       */
      const make = function (_, flags) {
        return rconstruct(maker, [rx, flags]);
      };
      const species = {
        __proto__: null,
        get [symSpecies]() {
          // The original read constructor first, whose getter refused anything but undefined or an object.
          const s = ctor === undefined ? undefined : /** @type {Dict} */ (ctor)[symSpecies];
          if (s === undefined || s === null) maker = RegExpGuard;
          else if (isConstructor(s)) maker = s;
          else throw new TypeErrorCtor('object.constructor[Symbol.species] is not a constructor');
          return make;
        },
      };
      const standIn = {
        __proto__: null,
        get constructor() {
          ctor = rx.constructor;
          if (ctor !== undefined && (ctor === null || (typeof ctor !== 'object' && typeof ctor !== 'function')))
            throw new TypeErrorCtor('The .constructor property is not an object');
          return species;
        },
        get flags() {
          return rx.flags;
        },
        get lastIndex() {
          return rx.lastIndex;
        },
      };
      return rapply(original, standIn, [string, limit]);
    });
  }

  return { __proto__: null, isRegExp, methodOf, reProto, requireGlobal };
}
