/*---
description: Each Intl constructor is a writable, configurable, non-enumerable data property of Intl from the start, with its own name, length, prototype and statics, and is its prototype's constructor
includes: [propertyHelper.js]
---*/
var lengths = {
  DateTimeFormat: 0,
  NumberFormat: 0,
  Collator: 0,
  PluralRules: 0,
  RelativeTimeFormat: 0,
  ListFormat: 0,
  DisplayNames: 2,
  Segmenter: 0,
  Locale: 1,
  DurationFormat: 0,
};
var names = Object.keys(lengths);
// Descriptors first, before any constructor is read through Intl.
for (var i = 0; i < names.length; i++) {
  var desc = Object.getOwnPropertyDescriptor(Intl, names[i]);
  assert.sameValue('value' in desc, true, names[i] + ' is a data property before its first read');
  verifyProperty(Intl, names[i], { writable: true, enumerable: false, configurable: true });
}
verifyProperty(globalThis, 'Intl', { writable: true, enumerable: false, configurable: true });
for (var j = 0; j < names.length; j++) {
  var n = names[j];
  var C = Intl[n];
  verifyProperty(C, 'name', { value: n, writable: false, enumerable: false, configurable: true });
  verifyProperty(C, 'length', { value: lengths[n], writable: false, enumerable: false, configurable: true });
  verifyProperty(C, 'prototype', { writable: false, enumerable: false, configurable: false });
  verifyProperty(C.prototype, 'constructor', { value: C, writable: true, enumerable: false, configurable: true });
  assert.sameValue(Object.getPrototypeOf(C), Function.prototype, n + "'s prototype");
  assert.sameValue(Intl[n], C, n + ' is the same on every read');
  assert.sameValue(Function.prototype.toString.call(C), 'function ' + n + '() { [native code] }', n + ' prints as native code');
  if (n !== 'Locale') verifyProperty(C, 'supportedLocalesOf', { writable: true, enumerable: false, configurable: true });
}
