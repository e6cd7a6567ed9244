// The prelude guard on work the garbage collector schedules: a guard of guardResources (resources.js).
// Measured (in-process pool, 64 MB isolate): FinalizationRegistry callbacks over 200,000 objects ran during the next
// execution on the isolate, possibly another organization's; WeakRef makes GC timing observable. Both are removed.
/** @import { Kit } from './types.js' */

/**
 * Installs the guard; `kit` holds what guardResources captured and shares (resources.js).
 * @param {Kit} kit
 */
export function guardGcCallbacks(kit) {
  const { G } = kit;
  // Work scheduled by the garbage collector would run during whichever execution next triggers a GC,
  // possibly another organization's; WeakRef makes GC timing observable. Neither is available.
  delete G.FinalizationRegistry;
  delete G.WeakRef;
}
