/*---
description: Builtins print as native functions, with their own names
---*/
var natives = [
  [String.prototype.replaceAll, 'replaceAll'],
  [String.prototype.padStart, 'padStart'],
  [String.prototype.padEnd, 'padEnd'],
  [String.prototype.repeat, 'repeat'],
  [String.prototype.localeCompare, 'localeCompare'],
  [Array.prototype.join, 'join'],
  [Array.prototype.toLocaleString, 'toLocaleString'],
  [JSON.stringify, 'stringify'],
  [RegExp, 'RegExp'],
  [eval, 'eval'],
  [Function, 'Function'],
  [ArrayBuffer, 'ArrayBuffer'],
  [Intl.NumberFormat, 'NumberFormat'],
  [Intl.DateTimeFormat, 'DateTimeFormat'],
  [Object.getPrototypeOf(Uint8Array).prototype.join, 'join'],
  [RegExp.prototype[Symbol.replace], '[Symbol.replace]'],
  [Object.getPrototypeOf(async function () {}).constructor, 'AsyncFunction'],
];
for (var i = 0; i < natives.length; i++) {
  var text = Function.prototype.toString.call(natives[i][0]);
  assert.sameValue(text, 'function ' + natives[i][1] + '() { [native code] }', natives[i][1]);
}
