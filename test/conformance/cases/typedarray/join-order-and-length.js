/*---
description: TypedArray join validates this before converting the separator, and uses the array's own length
---*/
var TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
var called = false;
var sep = {
  toString: function () {
    called = true;
    return '-';
  },
};
assert.throws(TypeError, function () {
  TypedArrayPrototype.join.call({}, sep);
});
assert.sameValue(called, false, 'the separator was not converted');
var ta = new Uint8Array([1, 2]);
Object.defineProperty(ta, 'length', { value: 5 });
assert.sameValue(ta.join(), '1,2');
assert.sameValue(ta.toLocaleString(), '1,2');
