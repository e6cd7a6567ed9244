/*---
description: localeCompare converts its argument with ToString (a Symbol throws)
---*/
assert.throws(TypeError, function () {
  'a'.localeCompare(Symbol());
});
assert.sameValue('a'.localeCompare('a'), 0);
assert.sameValue('a'.localeCompare('b') < 0, true);
