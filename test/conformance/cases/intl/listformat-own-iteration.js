/*---
description: ListFormat iterates an array through the array's own iterator once, and reads an iterable's results step by step
---*/
var calls = 0;
var original = Array.prototype[Symbol.iterator];
Array.prototype[Symbol.iterator] = function () {
  calls++;
  return original.call(this);
};
try {
  assert.sameValue(new Intl.ListFormat('en').format(['a', 'b']), 'a and b');
} finally {
  Array.prototype[Symbol.iterator] = original;
}
assert.sameValue(calls, 1, 'the array iterator was asked once');
assert.sameValue(new Intl.ListFormat('en').format('ab'), 'a and b', 'a string is an iterable of its characters');
assert.throws(TypeError, function () {
  new Intl.ListFormat('en').format(5);
});
assert.throws(TypeError, function () {
  new Intl.ListFormat('en').format({});
});
assert.sameValue(new Intl.ListFormat('en').format(), '');
