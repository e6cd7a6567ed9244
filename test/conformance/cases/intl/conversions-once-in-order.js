/*---
description: What the locale methods and Intl formatters convert, they convert once, in the specified order, and a receiver of the wrong kind is refused before any argument is converted
---*/
var log = [];
function value(name, v) {
  return {
    valueOf: function () {
      log.push(name + '.valueOf');
      return v;
    },
    toString: function () {
      log.push(name + '.toString');
      return String(v);
    },
  };
}
var nf = new Intl.NumberFormat('en');
assert.sameValue(nf.formatRange(value('start', 1), value('end', 3)), '1–3');
assert.compareArray(log, ['start.valueOf', 'end.valueOf']);

log = [];
assert.throws(TypeError, function () {
  nf.formatRange(Symbol(), value('end', 3));
});
assert.compareArray(log, [], 'a Symbol start is refused before the end is converted');

log = [];
assert.sameValue(String.prototype.localeCompare.call(value('this', 'a'), value('that', 'a')), 0);
assert.compareArray(log, ['this.toString', 'that.toString']);

log = [];
assert.sameValue(String.prototype.toLocaleUpperCase.call(value('this', 'abc')), 'ABC');
assert.sameValue(String.prototype.normalize.call(value('this', 'abc'), value('form', 'NFC')), 'abc');
assert.compareArray(log, ['this.toString', 'this.toString', 'form.toString']);

log = [];
assert.throws(TypeError, function () {
  Intl.NumberFormat.prototype.formatToParts.call({}, value('x', 1));
});
assert.throws(TypeError, function () {
  Intl.Segmenter.prototype.segment.call(new Intl.Collator('en'), value('s', 'ab'));
});
assert.throws(TypeError, function () {
  Intl.DisplayNames.prototype.of.call({}, value('code', 'US'));
});
assert.compareArray(log, [], 'nothing converted for a wrong receiver');

assert.throws(TypeError, function () {
  new Intl.Segmenter('en').segment(Symbol());
});
assert.sameValue(nf.format(value('n', '1e3')), '1,000');
assert.sameValue(nf.format(true), '1');
assert.sameValue(nf.formatToParts(-0)[0].type, 'minusSign');
