// Assertions for the cases (the subset of test262's harness API they use, written for this project).
function assert(value, message) {
  if (value !== true) throw new Test262Error('Expected true but got ' + __show(value) + (message ? ': ' + message : ''));
}
function __show(value) {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === 0 && 1 / value < 0) return '-0';
  try {
    return String(value);
  } catch (_) {
    return '[' + typeof value + ']';
  }
}
assert._isSameValue = function (a, b) {
  if (a === b) return a !== 0 || 1 / a === 1 / b;
  return a !== a && b !== b;
};
assert.sameValue = function (actual, expected, message) {
  if (!assert._isSameValue(actual, expected)) {
    throw new Test262Error((message ? message + ' ' : '') + 'Expected SameValue(' + __show(actual) + ', ' + __show(expected) + ') to be true');
  }
};
assert.notSameValue = function (actual, unexpected, message) {
  if (assert._isSameValue(actual, unexpected)) {
    throw new Test262Error((message ? message + ' ' : '') + 'Expected SameValue(' + __show(actual) + ', ' + __show(unexpected) + ') to be false');
  }
};
assert.throws = function (expectedErrorConstructor, func, message) {
  var prefix = message ? message + ' ' : '';
  try {
    func();
  } catch (thrown) {
    if (typeof thrown !== 'object' || thrown === null) throw new Test262Error(prefix + 'Thrown value was not an object');
    if (thrown.constructor !== expectedErrorConstructor) {
      throw new Test262Error(prefix + 'Expected a ' + expectedErrorConstructor.name + ' but got a ' + (thrown.constructor && thrown.constructor.name));
    }
    return;
  }
  throw new Test262Error(prefix + 'Expected a ' + expectedErrorConstructor.name + ' to be thrown but no exception was thrown at all');
};
assert.compareArray = function (actual, expected, message) {
  var prefix = message ? message + ' ' : '';
  if (actual == null || expected == null || actual.length !== expected.length) {
    throw new Test262Error(prefix + 'Expected [' + String(expected) + '] but got [' + String(actual) + ']');
  }
  for (var i = 0; i < actual.length; i++) {
    if (!assert._isSameValue(actual[i], expected[i])) {
      throw new Test262Error(prefix + 'Expected [' + String(expected) + '] but got [' + String(actual) + '] (index ' + i + ')');
    }
  }
};
