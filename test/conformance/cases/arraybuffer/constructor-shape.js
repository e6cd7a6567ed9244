/*---
description: ArrayBuffer keeps its standard shape and can be subclassed
includes: [propertyHelper.js]
---*/
verifyProperty(globalThis, 'ArrayBuffer', { writable: true, enumerable: false, configurable: true });
verifyProperty(ArrayBuffer, 'prototype', { writable: false, enumerable: false, configurable: false });
assert.sameValue(ArrayBuffer.length, 1);
assert.sameValue(ArrayBuffer.name, 'ArrayBuffer');
assert.sameValue(ArrayBuffer.prototype.constructor, ArrayBuffer);
assert.sameValue(Object.getPrototypeOf(ArrayBuffer), Function.prototype);
assert.sameValue(Object.isFrozen(ArrayBuffer), false);
class Sub extends ArrayBuffer {}
var s = new Sub(4);
assert.sameValue(Object.getPrototypeOf(s), Sub.prototype);
assert.sameValue(s.byteLength, 4);
assert.throws(TypeError, function () {
  ArrayBuffer(1);
});
