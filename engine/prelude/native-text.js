// The prelude's native text: every function the prelude puts where a builtin was (or beside them: bindings, console)
// prints as V8 prints its own natives, 'function name() { [native code] }', never the prelude's source: scripts check
// for native functions, and the guards' code is not theirs to read. A guard of the prelude (core.js), installed first.
/** @import { AsNative, NativeTextScope } from './types.js' */

/**
 * Replaces Function.prototype.toString with one that reads the registry first (itself registered), and returns
 * asNative(fn, original): it registers a replacement with the text of the builtin it replaces (or, given a name, the
 * text V8 gives a native of that name). Guards call it through replaceMethod and wrap (resources.js) or directly;
 * test/engine/standard-builtins.test.ts finds any function left unregistered. `scope` gives the originals core.js
 * captured: rapply, defineProperty, WeakMapCtor, wmGet, wmSet.
 * @param {NativeTextScope} scope
 * @returns {AsNative}
 */
export function installNativeText(scope) {
  const { rapply, defineProperty, WeakMapCtor, wmGet, wmSet } = scope;
  // (globalThis.Function, not Function: the bundler would rename the Function constructor guard named so.)
  const FunctionProto = globalThis.Function.prototype;
  const fnToString = FunctionProto.toString;
  const nativeText = new WeakMapCtor();
  // (The text is made when read: registering costs every context only a WeakMap entry.)
  /** @type {AsNative} */
  const asNative = (fn, original) => {
    rapply(wmSet, nativeText, [fn, original]);
    return fn;
  };
  {
    const toString = {
      toString() {
        const original = rapply(wmGet, nativeText, [this]);
        if (original === undefined) return rapply(fnToString, this, []);
        return typeof original === 'function' ? rapply(fnToString, original, []) : 'function ' + original + '() { [native code] }';
      },
    }.toString;
    defineProperty(FunctionProto, 'toString', {
      __proto__: null,
      value: asNative(toString, fnToString),
      writable: true,
      enumerable: false,
      configurable: true,
    });
  }
  return asNative;
}
