/*---
description: JSON.stringify keeps its standard shape and behaviour
includes: [propertyHelper.js]
---*/
verifyProperty(JSON, 'stringify', { writable: true, enumerable: false, configurable: true });
assert.sameValue(JSON.stringify.length, 3);
assert.sameValue(JSON.stringify.name, 'stringify');
assert.sameValue(JSON.stringify({ a: [1, 'x', null] }, null, 1), '{\n "a": [\n  1,\n  "x",\n  null\n ]\n}');
assert.sameValue(JSON.stringify(undefined), undefined);
assert.throws(TypeError, function () {
  JSON.stringify(1n);
});
