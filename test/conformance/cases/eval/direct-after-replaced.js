/*---
description: A direct eval once the global eval is replaced calls the replacement, and fails as V8 words it when the replacement cannot be called
flags: [noStrict]
---*/
var seen;
globalThis.eval = function (x) {
  seen = x;
  return 'replaced';
};
assert.sameValue(eval('1 + 1'), 'replaced');
assert.sameValue(seen, '1 + 1');
globalThis.eval = 5;
var error;
try {
  eval('1');
} catch (e) {
  error = e;
}
assert.sameValue(error.constructor, TypeError);
assert.sameValue(error.message, 'eval is not a function');
globalThis.eval = {};
error = undefined;
try {
  eval('1');
} catch (e) {
  error = e;
}
assert.sameValue(error.constructor, TypeError);
assert.sameValue(error.message, 'eval is not a function');
