/*---
description: The Function constructors have their standard names, lengths, prototypes and descriptors
includes: [propertyHelper.js]
---*/
var AsyncFunction = Object.getPrototypeOf(async function () {}).constructor;
var GeneratorFunction = Object.getPrototypeOf(function* () {}).constructor;
var AsyncGeneratorFunction = Object.getPrototypeOf(async function* () {}).constructor;

verifyProperty(globalThis, 'Function', { writable: true, enumerable: false, configurable: true });
assert.sameValue(Function.prototype.constructor, Function);
assert.sameValue(Function.length, 1);
assert.sameValue(Function.name, 'Function');
assert.sameValue(Object.getPrototypeOf(Function), Function.prototype);

var all = [
  [AsyncFunction, 'AsyncFunction'],
  [GeneratorFunction, 'GeneratorFunction'],
  [AsyncGeneratorFunction, 'AsyncGeneratorFunction'],
];
for (var i = 0; i < all.length; i++) {
  var C = all[i][0];
  assert.sameValue(Object.getPrototypeOf(C), Function, all[i][1] + ' inherits from Function');
  assert.sameValue(C.name, all[i][1]);
  assert.sameValue(C.length, 1);
  verifyProperty(C, 'prototype', { writable: false, enumerable: false, configurable: false });
  verifyProperty(C.prototype, 'constructor', { value: C, writable: false, enumerable: false, configurable: true });
}
assert.sameValue(new Function('a', 'b', 'return a + b')(1, 2), 3);
assert.sameValue(Object.getPrototypeOf(new AsyncFunction('')), AsyncFunction.prototype);
