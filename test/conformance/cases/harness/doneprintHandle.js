// Async cases report through print(), which the runner provides: complete, or the failure.
function $DONE(error) {
  if (error) {
    var text = typeof error === 'object' && error !== null && 'name' in error ? error.name + ': ' + error.message : 'Test262Error: ' + String(error);
    print('Test262:AsyncTestFailure:' + text);
  } else {
    print('Test262:AsyncTestComplete');
  }
}
