// The prelude's guards are modules (engine/prelude/*.js) bundled into the one script every fresh context evaluates
// (scripts/build-prelude.ts). The bundle is committed, so the server and the sandbox host processes start without a
// build step: it must be exactly what the build writes from the modules as they are, or a guard edited in its module
// would not be what runs.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { BUNDLE_FILE, preludeBundleFile } from '../../scripts/build-prelude.ts';
import { PRELUDE } from '../../engine/prelude.ts';

t.test('the committed bundle is what the build writes from the modules', async (t) => {
  t.equal(readFileSync(BUNDLE_FILE, 'utf8'), await preludeBundleFile(), 'stale: run `npm run build:prelude`');
});

t.test('the evaluated prelude is plain script: no module syntax, no bundler helper, limits given as values', async (t) => {
  t.notMatch(PRELUDE, /^\s*(?:import|export)\b/m);
  t.notMatch(PRELUDE, /^(?:var|const|let|function) __/m);
  // The caps appear once, in the record handed to createPrelude, never spliced into the guards' code.
  t.match(PRELUDE, /\(Object\.freeze\(\{"__proto__":null,"maxBuiltString":16777216,/);
  t.equal(PRELUDE.split('16777216').length - 1, 1);
});
