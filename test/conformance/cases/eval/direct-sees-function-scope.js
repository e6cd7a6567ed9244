/*---
description: A direct eval sees the calling function's variables, parameters and arguments
flags: [noStrict]
---*/
function f(param) {
  var local = 'local';
  return [eval('local'), eval('param'), eval('arguments.length'), eval('typeof local')];
}
assert.compareArray(f('p', 'extra'), ['local', 'p', 2, 'string']);

function g() {
  eval('var declared = 1');
  return typeof declared;
}
assert.sameValue(g(), 'number', 'a var declared by a sloppy direct eval lands in the function');
assert.sameValue(typeof declared, 'undefined', 'and not on the global object');
