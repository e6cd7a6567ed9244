/*---
description: A direct eval inside a function sees its this and new.target
---*/
function C() {
  this.seen = eval('new.target');
  this.self = eval('this');
}
var c = new C();
assert.sameValue(c.seen, C);
assert.sameValue(c.self, c);

class Base {
  m() {
    return 'base';
  }
}
class Derived extends Base {
  m() {
    return eval('super.m()');
  }
}
assert.sameValue(new Derived().m(), 'base', 'super in a direct eval of a method');
