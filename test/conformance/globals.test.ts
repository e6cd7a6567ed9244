// Everything a script reaches from its global object has the shape it has in plain V8: own keys, descriptors,
// prototypes, function names, lengths and Function.prototype.toString ("[native code]" where V8 says so), the
// same value on every read of a getter, and removals whole. The only differences allowed are the reviewed ones
// of global-differences.txt, each with its reason.
import t from 'tap';
import { applyIsolateFlags } from '../../engine/v8-flags.ts';
import { globalDifferences } from './global-diff.ts';

applyIsolateFlags();

t.test('a sandbox context has the shape of a plain one, short of the declared differences', (t) => {
  const { differences, unused, nodes } = globalDifferences();
  t.ok(nodes.plain > 500, `the walk reached the plain context's objects (${nodes.plain})`);
  t.same(differences, [], 'no undeclared difference between the plain context and the sandbox');
  t.same(
    unused.map((u) => `${u.kind} ${u.path}`),
    [],
    'every declared difference still applies',
  );
  t.end();
});
