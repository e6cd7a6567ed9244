/*---
description: What feature detection finds on ArrayBuffer works (resizable buffers are there whole or not at all)
---*/
var proto = ArrayBuffer.prototype;
var hasResize = typeof proto.resize === 'function';
assert.sameValue('resizable' in proto, hasResize, 'resizable goes with resize');
assert.sameValue('maxByteLength' in proto, hasResize, 'maxByteLength goes with resize');
if (hasResize) {
  var b = new ArrayBuffer(1, { maxByteLength: 4 });
  b.resize(4);
  assert.sameValue(b.byteLength, 4);
  assert.sameValue(b.resizable, true);
}
var fixed = new ArrayBuffer(8);
assert.sameValue(fixed.byteLength, 8);
if (typeof proto.transfer === 'function') {
  var moved = fixed.transfer(4);
  assert.sameValue(moved.byteLength, 4);
  assert.sameValue(fixed.byteLength, 0, 'transfer detaches');
}
