// verifyProperty(object, key, { value, writable, enumerable, configurable }): the own property's descriptor has
// exactly the fields given (a field left out is not checked). Never changes the object.
function verifyProperty(object, key, expected) {
  var desc = Object.getOwnPropertyDescriptor(object, key);
  var where = String(typeof key === 'symbol' ? key.toString() : key);
  if (desc === undefined) throw new Test262Error(where + ' is not an own property');
  var fields = ['value', 'writable', 'enumerable', 'configurable', 'get', 'set'];
  for (var i = 0; i < fields.length; i++) {
    var f = fields[i];
    if (!Object.prototype.hasOwnProperty.call(expected, f)) continue;
    if (!assert._isSameValue(desc[f], expected[f])) {
      throw new Test262Error(where + ': descriptor field ' + f + ' is ' + __show(desc[f]) + ', expected ' + __show(expected[f]));
    }
  }
  return true;
}
