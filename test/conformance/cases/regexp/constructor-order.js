/*---
description: RegExp reads its pattern, then newTarget's prototype once, then converts, and keeps the builtin's own keys
---*/
var log = [];
var pattern = {
  get [Symbol.match]() {
    log.push('get match');
    return true;
  },
  get source() {
    log.push('get source');
    return {
      toString: function () {
        log.push('source toString');
        return 'a+';
      },
    };
  },
  get flags() {
    log.push('get flags');
    return {
      toString: function () {
        log.push('flags toString');
        return 'g';
      },
    };
  },
};
var proto = Object.create(RegExp.prototype);
var newTarget = new Proxy(function () {}, {
  get: function (target, key) {
    log.push('get newTarget.' + String(key));
    return key === 'prototype' ? proto : target[key];
  },
});
var rx = Reflect.construct(RegExp, [pattern], newTarget);
assert.compareArray(log, ['get match', 'get source', 'get flags', 'get newTarget.prototype', 'source toString', 'flags toString']);
assert.sameValue(Object.getPrototypeOf(rx), proto, 'the prototype read from newTarget');
assert.sameValue(RegExp.prototype.exec.call(rx, 'baaa')[0], 'aaa');

// A newTarget whose prototype is not an object gives the realm's RegExp.prototype.
var bare = function () {};
bare.prototype = 1;
assert.sameValue(Object.getPrototypeOf(Reflect.construct(RegExp, ['x'], bare)), RegExp.prototype);

// Called without new, a RegExp whose constructor is RegExp comes back as it is; a subclass builds its own.
var same = /x/;
assert.sameValue(RegExp(same), same);
class Sub extends RegExp {}
var sub = new Sub('y', 'i');
assert.sameValue(Object.getPrototypeOf(sub), Sub.prototype);
assert.sameValue(sub.flags, 'i');
assert(sub instanceof RegExp, 'instanceof RegExp');

// The constructor's own keys, in the builtin's order, with the legacy statics reading the last match.
var keys = Reflect.ownKeys(RegExp).map(String);
assert.sameValue(keys.indexOf('length') < keys.indexOf('prototype'), true, 'length before prototype');
assert.sameValue(keys.indexOf('$1') !== -1, true, 'has $1');
/(b)(c)/.exec('abcd');
assert.sameValue(RegExp.$1, 'b');
assert.sameValue(RegExp.lastMatch, 'bc');
assert.sameValue(RegExp.prototype.constructor, RegExp);
assert.sameValue(RegExp.length, 2);
assert.sameValue(RegExp.name, 'RegExp');
