/*---
description: RegExp.prototype[Symbol.replace] reads named groups from the exec result and converts them with ToString
---*/
var re = /./;
re.exec = function () {
  re.exec = function () {
    return null;
  };
  var result = ['a'];
  result.index = 0;
  result.groups = { x: 42, y: undefined };
  return result;
};
assert.sameValue(re[Symbol.replace]('abc', '[$<x>|$<y>]'), '[42|]bc');
assert.sameValue('2020-01'.replace(/(?<y>\d+)-(?<m>\d+)/, '$<m>/$<y>'), '01/2020');
