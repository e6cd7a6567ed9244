/*---
description: Constructing an Intl object with another newTarget reads that newTarget's prototype once, and a subclass or legacy call gives what V8 gives
---*/
var reads = 0;
var proto = { marker: true };
var newTarget = new Proxy(function () {}, {
  get: function (target, key) {
    if (key === 'prototype') {
      reads++;
      return proto;
    }
    return target[key];
  },
});
var made = Reflect.construct(Intl.DateTimeFormat, ['en'], newTarget);
assert.sameValue(reads, 1, 'prototype read once');
assert.sameValue(Object.getPrototypeOf(made), proto);

function NotAnObjectPrototype() {}
NotAnObjectPrototype.prototype = 5;
assert.sameValue(Object.getPrototypeOf(Reflect.construct(Intl.NumberFormat, [], NotAnObjectPrototype)), Intl.NumberFormat.prototype);

class Money extends Intl.NumberFormat {
  twice(v) {
    return this.format(v * 2);
  }
}
var money = new Money('en');
assert.sameValue(money.twice(2), '4');
assert.sameValue(money instanceof Intl.NumberFormat, true);

var legacy = Object.create(Intl.DateTimeFormat.prototype);
assert.sameValue(Intl.DateTimeFormat.call(legacy, 'en', { timeZone: 'UTC' }), legacy);
assert.sameValue(legacy.format(0), '1/1/1970');
assert.throws(TypeError, function () {
  Intl.Locale('en');
});
