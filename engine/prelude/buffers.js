// The prelude guard on resizable ArrayBuffers: a guard of guardResources (resources.js).
// Measured (in-process pool, server RSS, 64 MB isolate): 4 × resize(2**28) + fill of a resizable buffer took
// 1027 MB, the result ok and the memory held after the run. Resizable buffers are refused (removed whole).
/** @import { Kit } from './types.js' */

/**
 * Installs the guard; `kit` holds what guardResources captured and shares (resources.js). Returns the original ArrayBuffer, which the Intl guards charge with.
 * @param {Kit} kit
 */
export function guardBuffers(kit) {
  const { G, asNative, rconstruct, defineProperty, getOwnPropertyDescriptor, TypeErrorCtor, readOnlyPrototype } = kit;
  // Resizable buffers reserve maxByteLength of address space and grow outside the allocator's limit. They are
  // removed whole, as an engine without them has none: ArrayBuffer takes one argument and ignores a second (no
  // maxByteLength read), and the prototype has no resize, resizable or maxByteLength, so a script that checks
  // for them (or looks at what it built) sees plain buffers. transfer and slice of a plain buffer stay plain, and
  // SharedArrayBuffer (growable) is gone. The original constructor stays captured here, out of reach.
  const AB = G.ArrayBuffer;
  /** @type {{ resize?: unknown, resizable?: unknown, maxByteLength?: unknown }} The prototype, and what is deleted of it. */
  const abProto = AB.prototype;
  /** @param {unknown} length */
  const ArrayBufferGuard = function ArrayBuffer(length) {
    if (new.target === undefined) throw new TypeErrorCtor("Constructor ArrayBuffer requires 'new'");
    return rconstruct(AB, [length], new.target);
  };
  asNative(ArrayBufferGuard, AB);
  readOnlyPrototype(ArrayBufferGuard, abProto);
  // (ArrayBuffer's own isView and @@species, which V8 defines.)
  defineProperty(ArrayBufferGuard, 'isView', /** @type {PropertyDescriptor} */ (getOwnPropertyDescriptor(AB, 'isView')));
  defineProperty(ArrayBufferGuard, Symbol.species, /** @type {PropertyDescriptor} */ (getOwnPropertyDescriptor(AB, Symbol.species)));
  defineProperty(abProto, 'constructor', { __proto__: null, value: ArrayBufferGuard, writable: true, enumerable: false, configurable: true });
  delete abProto.resize;
  delete abProto.resizable;
  delete abProto.maxByteLength;
  defineProperty(G, 'ArrayBuffer', { __proto__: null, value: ArrayBufferGuard, writable: true, enumerable: false, configurable: true });

  return { __proto__: null, AB };
}
