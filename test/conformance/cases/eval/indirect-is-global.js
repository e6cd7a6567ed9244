/*---
description: An indirect eval evaluates in the global scope, and eval returns a non-string argument as it is
flags: [noStrict]
---*/
var x = 'global';
function f() {
  var x = 'local';
  return (0, eval)('x');
}
assert.sameValue(f(), 'global');
(0, eval)('var madeGlobal = 7');
assert.sameValue(globalThis.madeGlobal, 7);
var o = {};
assert.sameValue(eval(o), o);
assert.sameValue(eval(5), 5);
assert.sameValue(eval.length, 1);
assert.sameValue(eval.name, 'eval');
