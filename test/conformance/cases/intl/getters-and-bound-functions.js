/*---
description: The format and compare getters keep their names, and each formatter gives the same bound function on every read, anonymous, not a constructor, printed as native code
---*/
var format = Object.getOwnPropertyDescriptor(Intl.NumberFormat.prototype, 'format');
assert.sameValue(format.get.name, 'get format');
assert.sameValue(format.set, undefined);
assert.sameValue(Function.prototype.toString.call(format.get), 'function get format() { [native code] }');
var compare = Object.getOwnPropertyDescriptor(Intl.Collator.prototype, 'compare');
assert.sameValue(compare.get.name, 'get compare');
var nf = new Intl.NumberFormat('en');
var f = nf.format;
assert.sameValue(nf.format, f, 'the same function on every read');
assert.notSameValue(new Intl.NumberFormat('en').format, f, 'each formatter has its own');
assert.sameValue(f.name, '');
assert.sameValue(f.length, 1);
assert.sameValue(Object.prototype.hasOwnProperty.call(f, 'prototype'), false);
assert.sameValue(Function.prototype.toString.call(f), 'function () { [native code] }');
assert.throws(TypeError, function () {
  new f(1);
});
var collator = new Intl.Collator('en');
assert.sameValue(collator.compare, collator.compare);
assert.sameValue(collator.compare.length, 2);
assert.throws(TypeError, function () {
  collator.compare('a', Symbol());
});
