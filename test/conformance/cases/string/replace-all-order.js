/*---
description: replaceAll checks a non-global RegExp before it converts this
---*/
var converted = false;
var thisValue = {
  toString: function () {
    converted = true;
    return 'x';
  },
};
assert.throws(TypeError, function () {
  String.prototype.replaceAll.call(thisValue, /x/, 'y');
});
assert.sameValue(converted, false);
assert.sameValue('aXbX'.replaceAll('X', '-'), 'a-b-');
assert.sameValue('aXbX'.replaceAll(/X/g, '$&$&'), 'aXXbXX');
