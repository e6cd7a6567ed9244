/*---
description: The direct eval of strict code is strict and keeps its var declarations to itself
flags: [onlyStrict]
---*/
eval('var onlyInside = 1');
assert.sameValue(typeof onlyInside, 'undefined');
function h() {
  var x = 'in h';
  return eval('x');
}
assert.sameValue(h(), 'in h');
