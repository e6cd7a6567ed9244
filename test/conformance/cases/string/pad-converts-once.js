/*---
description: padStart and padEnd convert their arguments once each, in order
---*/
var log = [];
var len = {
  valueOf: function () {
    log.push('len');
    return 5;
  },
};
var fill = {
  toString: function () {
    log.push('fill');
    return 'ab';
  },
};
assert.sameValue('x'.padStart(len, fill), 'ababx');
assert.compareArray(log, ['len', 'fill']);
log = [];
assert.sameValue('x'.padEnd(len, fill), 'xabab');
assert.compareArray(log, ['len', 'fill']);
