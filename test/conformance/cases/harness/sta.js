// The error a failed check throws, and the marker of code a negative test must never reach (the names test262's
// tests use; this is the project's own small implementation of them).
function Test262Error(message) {
  if (!(this instanceof Test262Error)) return new Test262Error(message);
  this.message = message || '';
}
Test262Error.prototype.toString = function () {
  return 'Test262Error: ' + this.message;
};
Test262Error.thrower = function (message) {
  throw new Test262Error(message);
};
function $DONOTEVALUATE() {
  throw 'This statement should not be evaluated.';
}
