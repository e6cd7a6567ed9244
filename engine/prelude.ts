// The in-isolate half of the engine, compiled once per isolate and run in every fresh context before user
// code: its guards are the modules of engine/prelude/, bundled into one script at build time. It evaluates to the
// `run` function the host calls; nothing it holds is reachable from globals.
import { PRELUDE_BUNDLE } from './prelude/bundle.generated.ts';
import { INTL_BYTES, MAX_INTL_INPUT } from './prelude-intl.ts';
import { MAX_BUILT_STRING, MAX_DYNAMIC_SOURCE, MAX_READ_TEXT, SALT_MIN_PATTERN } from './prelude-resources.ts';

/** Name the prelude's frames carry in stack traces; user code is `SCRIPT_URL`. */
export const PRELUDE_FILENAME = 'engine:prelude';
export const SCRIPT_URL = 'file:///script.js';
/** Every host→isolate task rejects with an error whose message starts with this (see "Sentinel" in engine/prelude/core.js). */
export const SENTINEL = 'engine:sentinel';
/**
 * Deepest nesting of arrays and objects a result (or a binding argument) may have. Checked in the isolate while its
 * JSON is written (engine/prelude/json.js), so no value a script returns or passes can make the host's parsing,
 * validating, shaping or serializing recurse out of its stack; the host checks again (bridge.ts).
 */
export const MAX_RESULT_DEPTH = 100;
/** Separates the records appended to the sentinel's message: JSON and names never contain a raw NUL. */
export const SEP = '\u0000';

/**
 * The script every fresh context runs before user code: the bundle of engine/prelude/*.js (scripts/build-prelude.ts;
 * its header and core.js describe the protocol with the host), called with its limits as a frozen null-prototype
 * record of values. It evaluates to the `run` function the host calls.
 */
export const PRELUDE = `'use strict';
${PRELUDE_BUNDLE}(Object.freeze(${limitsRecord({
  maxBuiltString: MAX_BUILT_STRING,
  maxReadText: MAX_READ_TEXT,
  maxDynamicSource: MAX_DYNAMIC_SOURCE,
  saltMinPattern: SALT_MIN_PATTERN,
  maxResultDepth: MAX_RESULT_DEPTH,
  maxIntlInput: MAX_INTL_INPUT,
  intlBytes: INTL_BYTES,
  scriptUrl: SCRIPT_URL,
  sentinel: SENTINEL,
  sep: SEP,
})}));`;

/** A JavaScript object literal of plain values with a null prototype (JSON texts are valid expressions). */
function limitsRecord(values: Record<string, unknown>): string {
  const body = JSON.stringify(values);
  return `{"__proto__":null,${body.slice(1)}`;
}
