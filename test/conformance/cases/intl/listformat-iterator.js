/*---
description: ListFormat reads its list as an iterator, stepwise, and closes it on a non-string element
---*/
var returned = 0;
var steps = 0;
var iterable = {};
iterable[Symbol.iterator] = function () {
  return {
    next: function () {
      steps++;
      if (steps > 5) return { value: undefined, done: true };
      return steps === 1 ? { value: 'a', done: false } : { value: 2, done: false };
    },
    return: function () {
      returned++;
      return {};
    },
  };
};
assert.throws(TypeError, function () {
  new Intl.ListFormat('en').format(iterable);
});
assert.sameValue(steps, 2, 'stopped at the non-string');
assert.sameValue(returned, 1, 'the iterator was closed');
assert.sameValue(new Intl.ListFormat('en', { type: 'conjunction' }).format(['a', 'b', 'c']), 'a, b, and c');
