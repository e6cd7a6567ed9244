/*---
description: NumberFormat's format converts with ToNumber, keeps -0's sign, and is the same function on every read
---*/
var nf = new Intl.NumberFormat('en-US');
assert.sameValue(nf.format(null), '0');
assert.sameValue(nf.format('12'), '12');
assert.sameValue(nf.format(true), '1');
assert.sameValue(nf.formatToParts(-0)[0].type, 'minusSign');
assert.sameValue(nf.format, nf.format, 'one bound format per formatter');
var getter = Object.getOwnPropertyDescriptor(Intl.NumberFormat.prototype, 'format').get;
assert.sameValue(getter.name, 'get format');
var collator = new Intl.Collator('en');
assert.sameValue(collator.compare, collator.compare);
