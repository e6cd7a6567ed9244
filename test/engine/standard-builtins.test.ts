// The builtins the prelude replaces (the Function constructors, eval, ArrayBuffer, every guarded method) look and
// behave as V8's own: each case runs the same probe in a plain isolated-vm context (same V8, no prelude) and in the
// sandbox, and compares. Where the sandbox removes a feature (resizable buffers), it is removed whole.
import t from 'tap';
import ivm from 'isolated-vm';
import { FakeHost } from './helpers/fake-host.ts';
import { startEngine } from './helpers/engine.ts';
import { MAX_DYNAMIC_SOURCE } from '../../engine/prelude-resources.ts';

const engine = await startEngine({ poolSize: 1 });
t.teardown(() => engine.close());
const plainIsolate = new ivm.Isolate({ memoryLimit: 64 });
t.teardown(() => plainIsolate.dispose());

/** The JSON of what `body` (a function body) returns, in the sandbox. */
const sandbox = async (body: string): Promise<unknown> => {
  const r = await engine.execute({
    source: `return JSON.stringify((() => {\n${body}\n})())`,
    bindings: [],
    hostCall: new FakeHost().hostCall,
    limits: { wallMs: 5000, cpuMs: 5000 },
  });
  if (!r.ok) throw new Error(`sandbox: ${r.error?.type}: ${r.error?.message}`);
  return JSON.parse(r.result as string);
};
/** The same in a fresh plain context. */
const plain = async (body: string): Promise<unknown> => {
  const context = await plainIsolate.createContext();
  try {
    return JSON.parse((await context.eval(`JSON.stringify((() => {\n${body}\n})())`, { timeout: 5000 })) as string);
  } finally {
    context.release();
  }
};
const both = async (body: string) => ({ sandbox: await sandbox(body), plain: await plain(body) });

// Shared by the probes: a descriptor as data (its kind of value, its attributes).
const DESCRIBE = `const describe = (o, k) => {
  const d = Object.getOwnPropertyDescriptor(o, k);
  if (d === undefined) return null;
  const out = { enumerable: d.enumerable, configurable: d.configurable };
  if ('value' in d) { out.writable = d.writable; out.value = typeof d.value === 'function' ? 'function ' + d.value.name : typeof d.value === 'object' ? 'object' : d.value; }
  else { out.get = d.get === undefined ? null : d.get.name; out.set = d.set === undefined ? null : d.set.name; }
  return out;
};
const shape = (o) => Reflect.ownKeys(o).map((k) => [String(k), describe(o, k)]);
const attempt = (f) => { try { const v = f(); return typeof v === 'function' ? 'function' : v; } catch (e) { return e.constructor.name + ': ' + e.message; } };`;

t.test('every builtin function prints as V8 prints its natives', async (t) => {
  // Every function reachable from the global object (own properties, accessors, prototypes), and from instances of
  // the kinds that have prototypes no global names: path -> Function.prototype.toString of it (read through the
  // original toString of a fresh function, so a replaced toString is compared too).
  const walk = `const toString = Function.prototype.toString;
    const seen = new Set(); const texts = {};
    const visit = (o, path) => {
      if (o === null || (typeof o !== 'object' && typeof o !== 'function') || seen.has(o)) return;
      seen.add(o);
      if (typeof o === 'function') texts[path] = Reflect.apply(toString, o, []);
      for (const k of Reflect.ownKeys(o)) {
        const d = Object.getOwnPropertyDescriptor(o, k);
        const p = path + '.' + String(k);
        if ('value' in d) visit(d.value, p);
        else { visit(d.get, p + '<get>'); visit(d.set, p + '<set>'); if (o === globalThis) visit(globalThis[k], p); }
      }
      visit(Object.getPrototypeOf(o), path + '.__proto__');
    };
    visit(globalThis, 'globalThis');
    const kinds = { AsyncFunction: async function () {}, GeneratorFunction: function* () {}, AsyncGeneratorFunction: async function* () {},
      arrayIterator: [][Symbol.iterator](), mapIterator: new Map().entries(), setIterator: new Set().values(), stringIterator: ''[Symbol.iterator](),
      regExpStringIterator: 'a'.matchAll(/a/g), segments: new Intl.Segmenter().segment('a'), generator: (function* () {})(),
      asyncGenerator: (async function* () {})(), iteratorHelper: [].values().map((x) => x) };
    for (const [name, o] of Object.entries(kinds)) visit(Object.getPrototypeOf(o), name);
    return texts;`;
  const { sandbox: inSandbox, plain: inPlain } = (await both(walk)) as { sandbox: Record<string, string>; plain: Record<string, string> };
  const differ = Object.keys(inSandbox)
    .filter((path) => path in inPlain && inSandbox[path] !== inPlain[path])
    .map((path) => `${path}: ${inSandbox[path].slice(0, 80)} (V8: ${inPlain[path]})`);
  t.same(differ, [], 'each prints what V8 prints for it');
  // The sandbox's own globals (console, the bindings) are natives too: no prelude source is shown.
  const notNative = Object.entries(inSandbox)
    .filter(([, text]) => !/^function [^(]*\(\) \{ \[native code\] \}$/.test(text))
    .map(([path]) => path);
  t.same(notNative, [], 'no function of the sandbox shows its source');
  t.ok(Object.keys(inSandbox).length > 500, `${Object.keys(inSandbox).length} functions compared`);
});

t.test("Function.prototype.toString: the same function on every read, native itself, and V8's errors", async (t) => {
  const probe = `${DESCRIBE}
    const ts = Function.prototype.toString;
    return {
      same: Function.prototype.toString === ts && Object.getPrototypeOf(function () {}).toString === ts,
      own: describe(Function.prototype, 'toString'), length: ts.length, name: ts.name, isNative: ts.call(ts),
      user: (function f(a, b) { return a + b; }).toString(), arrow: ((x) => x * 2).toString(), klass: (class K { m() {} }).toString(),
      bound: ts.call(function g() {}.bind(null)), proxy: ts.call(new Proxy(function h() {}, {})),
      notFunction: attempt(() => ts.call({})), primitive: attempt(() => ts.call(1)), construct: attempt(() => new ts()),
      prototype: 'prototype' in ts,
    };`;
  const { sandbox: s, plain: p } = await both(probe);
  t.same(s, p);
});

t.test("Function, AsyncFunction, GeneratorFunction and AsyncGeneratorFunction are V8's in every observable way", async (t) => {
  const probe = `${DESCRIBE}
    const kinds = { Function, AsyncFunction: (async function () {}).constructor, GeneratorFunction: (function* () {}).constructor,
      AsyncGeneratorFunction: (async function* () {}).constructor };
    const out = { global: describe(globalThis, 'Function') };
    for (const [name, C] of Object.entries(kinds)) {
      const order = [];
      const arg = (text) => ({ toString() { order.push(text); return text; } });
      const made = C(arg('a'), arg('b'), arg(name === 'Function' ? 'return a + b' : ''));
      out[name] = {
        shape: shape(C), extensible: Object.isExtensible(C), frozen: Object.isFrozen(C),
        parent: Object.getPrototypeOf(C) === Function ? 'Function' : Object.getPrototypeOf(C) === Function.prototype ? 'Function.prototype' : 'other',
        prototypeShape: shape(C.prototype).filter(([k]) => k === 'constructor' || k === 'prototype' || k === 'Symbol(Symbol.toStringTag)'),
        constructorIsC: C.prototype.constructor === C, toString: String(C),
        order, made: String(made), madeProto: Object.getPrototypeOf(made) === C.prototype, viaNew: String(new C('x', '')),
        sub: attempt(() => { class Sub extends C {} const f = new Sub('return 7'); return [f instanceof Sub, f instanceof C, Object.getPrototypeOf(f) === Sub.prototype]; }),
        syntax: attempt(() => C('(')), symbol: attempt(() => C(Symbol('s'))), params: attempt(() => C('a,', 'b', '')),
        reflect: attempt(() => Object.getPrototypeOf(Reflect.construct(C, [''], Array)) === Array.prototype),
      };
    }
    out.evalShape = describe(globalThis, 'eval');
    out.evalOwn = shape(eval);
    out.evalProps = [eval.name, eval.length, 'prototype' in eval, attempt(() => new globalThis.eval('1')), eval(1), eval({}) !== null, eval('1 + 1'), attempt(() => eval('('))];
    return out;`;
  const { sandbox: s, plain: p } = await both(probe);
  t.same(s, p);
});

t.test("resizable buffers are removed whole; ArrayBuffer is otherwise V8's", async (t) => {
  const probe = `${DESCRIBE}
    let maxRead = false;
    const withOptions = new ArrayBuffer(8, { get maxByteLength() { maxRead = true; return 16; } });
    return {
      global: describe(globalThis, 'ArrayBuffer'), shape: shape(ArrayBuffer), extensible: Object.isExtensible(ArrayBuffer),
      parent: Object.getPrototypeOf(ArrayBuffer) === Function.prototype, toString: String(ArrayBuffer),
      species: ArrayBuffer[Symbol.species] === ArrayBuffer, isView: [ArrayBuffer.isView(new Uint8Array(1)), ArrayBuffer.isView({})],
      proto: shape(ArrayBuffer.prototype).filter(([k]) => !['maxByteLength', 'resizable', 'resize'].includes(k)),
      call: attempt(() => ArrayBuffer(1)), negative: attempt(() => new ArrayBuffer(-1)), huge: attempt(() => new ArrayBuffer(2 ** 53)),
      length: [new ArrayBuffer().byteLength, new ArrayBuffer(3.7).byteLength, new ArrayBuffer('5').byteLength],
      sub: attempt(() => { class B extends ArrayBuffer {} const b = new B(4); return [b instanceof B, b.byteLength, b.slice(1) instanceof B]; }),
      transfer: attempt(() => { const a = new ArrayBuffer(4); const b = a.transfer(8); return [a.detached, b.byteLength, b.transferToFixedLength(2).byteLength]; }),
      constructorOfBuffer: new Uint8Array(2).buffer.constructor === ArrayBuffer,
      withOptions: withOptions.byteLength,
    };`;
  const { sandbox: s, plain: p } = (await both(probe)) as { sandbox: Record<string, unknown>; plain: Record<string, unknown> };
  t.same(s, { ...p, withOptions: 8 }, 'all but the options: V8 builds a resizable buffer of 8 bytes, the sandbox a plain one');
  const detect = `let maxRead = false;
    const b = new ArrayBuffer(8, { get maxByteLength() { maxRead = true; return 16; } });
    return { onPrototype: ['maxByteLength', 'resizable', 'resize'].filter((k) => k in ArrayBuffer.prototype), onBuffer: [b.resizable, typeof b.resize, b.maxByteLength],
      optionsRead: maxRead, transferred: String(new ArrayBuffer(4).transfer(2).resizable), shared: typeof SharedArrayBuffer };`;
  t.same(
    await sandbox(detect),
    { onPrototype: [], onBuffer: [null, 'undefined', null], optionsRead: false, transferred: 'undefined', shared: 'undefined' },
    'nothing is left for feature detection to find, and the options are never read (as an engine without the feature)',
  );
  t.same(
    await plain(detect),
    { onPrototype: ['maxByteLength', 'resizable', 'resize'], onBuffer: [true, 'function', 16], optionsRead: true, transferred: 'false', shared: 'function' },
    'what V8 itself has (the sandbox removes it)',
  );
});

// A script's own eval(...) calls are direct evals, as in V8: they see the caller's scope. (The global eval stays the
// guarded indirect one; engine/direct-eval.ts rewrites the call sites so that their source is checked first.)
const DIRECT_EVAL = [
  `(function (a) { var local = 5; return [eval('local + a'), eval('arguments.length'), eval('typeof this')]; }).call({}, 2)`,
  `(function () { eval('var declared = 7'); return declared; })()`,
  `(function () { 'use strict'; eval('var inner = 1'); return typeof inner; })()`,
  `(function () { let x = 'outer'; { let x = 'inner'; return eval('x') + eval(eval('"x"')); } })()`,
  `(() => { class B { m() { return 'b'; } } class C extends B { m() { return eval('super.m()'); } } return new C().m(); })()`,
  `(function () { return eval('new.target') === undefined; })()`,
  `new (function () { this.same = eval('new.target') !== undefined; })().same`,
  `(function () { var x = 1; eval('x = 2; function inner() { return x; }'); return [x, inner()]; })()`,
  `(function () { return eval('1; 2; if (true) { 3 }'); })()`,
  `(function () { var q = 'local'; return [typeof eval, (0, eval)('typeof q'), eval?.('typeof q'), [eval][0]('typeof q'), eval(1), eval(), eval({}) !== null]; })()`,
  `(function () { const o = { eval: (x) => 'prop:' + x }; return [o.eval('1'), o['eval']('2')]; })()`,
  `(function () { var q = 2; return eval("'\\\\u0041' + q"); })()`,
  `(function () { var q = 3; return eval('(function () { return q; })')(); })()`,
  `(function () { var eval2 = 1; return eval('eval2 + 1'); })()`,
  `(() => { const saved = globalThis.eval; globalThis.eval = (x) => 'mine:' + x; try { return [eval('1+1'), typeof eval]; } finally { globalThis.eval = saved; } })()`,
  `(function () { try { eval('('); } catch (e) { return e.constructor.name; } })()`,
  `(function (a = eval('1 + 1'), b = eval('a * 3')) { return [a, b]; })()`,
  `(function () { var v = 'inner'; const tag = eval; return [tag\`x\`.length, (eval)('v'), eval(eval('"v"')), eval?.('typeof v')]; })()`,
  `(function () { var v = 4; class K { field = eval('v + 1'); eval() { return 'method'; } } const k = new K(); return [k.field, k.eval()]; })()`,
  `(function () { var v = 5; eval: for (;;) { break eval; } return { eval: eval('v') }.eval; })()`,
  `(function () { var v = 6; return eval(
    'v' +
    '+ 1'); })()`,
  // Checking a source leaves the script's RegExp legacy statics as its own last match left them.
  `(function () { var q = 4; return [eval("'\\\\u0065' + q"), eval("'\\\\u{76}val' + q"), eval('var \\\\u0065v = 1; ev + q')]; })()`,
  `(function () { /(q)(x)?/.exec('xqx'); eval('1 /* eval */'); eval('var evalu = 1; \\u0065'.slice(0, 14)); return [RegExp.lastMatch, RegExp.$1, RegExp.input, RegExp.leftContext]; })()`,
];

t.test('eval(...) in a script is a direct eval, as in V8', async (t) => {
  const body = `return [${DIRECT_EVAL.map((e) => `(() => { try { return ${e}; } catch (e) { return 'threw ' + e.name + ': ' + e.message; } })()`).join(',\n')}];`;
  const { sandbox: s, plain: p } = (await both(body)) as { sandbox: unknown[]; plain: unknown[] };
  for (let i = 0; i < DIRECT_EVAL.length; i++) t.same(s[i], p[i], DIRECT_EVAL[i]);
  // A script that binds the name eval itself is run as written: its eval is its own.
  const own = `var eval = (x) => 'own:' + x; return [eval('1'), (function () { return eval('2'); })()];`;
  t.same(await both(own), { sandbox: ['own:1', 'own:2'], plain: ['own:1', 'own:2'] });
});

t.test('a rewritten script keeps its lines: errors after an eval call spanning lines name the line the author wrote', async (t) => {
  const r = await engine.execute({
    source: 'const x = 1;\nconst y = eval(\n  "x + 1"\n);\nnull.boom;\n',
    bindings: [],
    hostCall: new FakeHost().hostCall,
    limits: { wallMs: 5000, cpuMs: 5000 },
  });
  t.equal(r.ok, false);
  t.equal(r.error?.line, 5);
});

t.test("every source a direct eval reaches is still capped, and V8's eval is never handed to the script", async (t) => {
  const over = MAX_DYNAMIC_SOURCE + 1;
  const probe = `const big = globalThis.big = '1;' + ' '.repeat(${over - 2});
    const refused = (f) => { try { f(); return 'compiled'; } catch (e) { return e.name + ': ' + e.message; } };
    return {
      direct: refused(() => eval(big)), inFunction: refused(function () { var x = 1; return eval(big); }),
      nested: refused(() => eval('eval(big)')), escaped: refused(() => eval('e\\\\u0076al(big)')), indirect: refused(() => (0, eval)(big)),
      alias: refused(() => { const e = eval; return e(big); }), call: refused(() => eval.call(null, big)),
      fits: refused(() => eval(big.slice(1))),
      intrinsic: [eval('eval') === globalThis.eval, eval('(() => eval)')() === globalThis.eval, eval('e\\\\u0076al') === globalThis.eval,
        (function () { return eval('this.eval'); })() === globalThis.eval, String(eval)],
      kit: typeof __sandboxEvalKit,
    };`;
  const refusal = `RangeError: eval: input longer than ${MAX_DYNAMIC_SOURCE} characters is refused in the sandbox.`;
  t.same(await sandbox(probe), {
    direct: refusal,
    inFunction: refusal,
    nested: refusal,
    escaped: refusal,
    indirect: refusal,
    alias: refusal,
    call: refusal,
    fits: 'compiled',
    intrinsic: [true, true, true, true, 'function eval() { [native code] }'],
    kit: 'undefined',
  });
});
