/*---
description: Direct eval inside an async function sees its locals across an await
flags: [async]
---*/
async function f() {
  var before = 1;
  await null;
  return eval('before + 1');
}
f()
  .then(function (v) {
    assert.sameValue(v, 2);
  })
  .then($DONE, $DONE);
