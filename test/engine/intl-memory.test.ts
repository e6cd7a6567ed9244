// an Intl object keeps its ICU part outside the V8 heap, where the isolate's memory
// limit does not see it and V8's collector does not count it. Kept, 200,000 DateTimeFormats took a host past its
// memory cap; made and dropped, they took it to 1 GB in 5 s. Each is now charged to the limit (engine/prelude-intl.ts):
// past it a RangeError, and garbage formatters make the isolate collect. What scripts see of Intl is otherwise the
// same: these cases compare with this process's own Intl.
import t from 'tap';
import { FakeHost, BINDINGS } from './helpers/fake-host.ts';
import { isolatesRss, startEngine } from './helpers/engine.ts';

type Engine = Awaited<ReturnType<typeof startEngine>>;
const run = (engine: Engine, source: string, tenant = 'org_a') =>
  engine.execute({ source, bindings: BINDINGS, hostCall: new FakeHost().hostCall, tenant, limits: { wallMs: 5000, cpuMs: 5000 } });

t.test('Intl objects held or piled up stay within the isolate limit', async (t) => {
  // One host process, whose RSS is the isolate's (an in-process engine would leave isolated-vm handles in this
  // process, which can abort it at exit).
  const engine = await startEngine({ hosts: 1, poolSize: 1, maxPoolSize: 1 });
  t.teardown(() => engine.close());
  const before = isolatesRss(engine);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, isolatesRss(engine));
  }, 2);
  // 20,000 of them hold 560 MB of ICU memory: refused long before.
  const held = await run(
    engine,
    `const held = [];
    try { for (let i = 0; i < 20000; i++) held.push(new Intl.DateTimeFormat('en', { timeZone: 'UTC' })); return 'accepted'; }
    catch (e) { return [e.name, e.message, held.length]; }`,
  );
  // Past the limit a RangeError; or, when the script's own heap grows while its charges fill the isolate's one
  // budget, memory_limit (isolated-vm's own stop). Both end the pile.
  const [name, message, made] = (held.result ?? []) as [string, string, number];
  if (held.ok) {
    t.equal(name, 'RangeError', `kept formatters are refused (${JSON.stringify(held.result).slice(0, 120)})`);
    t.match(message, /^Intl\.DateTimeFormat: the Intl objects of this script hold more memory than the sandbox allows; make one formatter and reuse it/);
    t.ok(made > 1000 && made < 3000, `about 64 MB worth were made first (${made})`);
  } else {
    t.equal(held.error?.type, 'memory_limit', `kept formatters are stopped (${held.error?.type})`);
  }
  const segments = await run(
    engine,
    `const words = new Intl.Segmenter('en', { granularity: 'word' }); const text = 'ab '.repeat(349525);
    const held = []; try { for (let i = 0; i < 200; i++) held.push(words.segment(text)); return 'accepted'; } catch (e) { return [e.name, held.length]; }`,
  );
  const [segError, kept] = (segments.result ?? []) as [string, number];
  if (segments.ok) {
    t.equal(segError, 'RangeError', 'Segments of a 1 M-character text (a 2 MB copy each) are charged by length');
    t.ok(kept < 30, `${kept} of them fit`);
  } else {
    t.equal(segments.error?.type, 'memory_limit', 'Segments of a 1 M-character text are stopped');
  }
  // Made and dropped: the same work ends ok, collected as it goes.
  const garbage = await run(
    engine,
    `let n = 0;
    for (let i = 0; i < 20000; i++) n += new Intl.DateTimeFormat('en', { timeZone: 'UTC' }).format(i * 864e5).length;
    for (let i = 0; i < 5000; i++) n += new Date(i * 864e5).toLocaleDateString('pt-BR', { timeZone: 'UTC', dateStyle: 'full' }).length;
    return n`,
  );
  t.equal(garbage.ok, true, `garbage formatters: ${garbage.error?.type ?? 'ok'} ${garbage.error?.message ?? ''}`);
  t.ok((garbage.result as number) > 200000, 'every one formatted');
  clearInterval(sampler);
  // The host process's RSS (166-173 MB here; this process's, in-process, was 133-150 MB): far below the 560 MB of
  // ICU memory these scripts held before they were charged.
  t.ok(peak - before < 250 * 1024 * 1024, `host RSS grew ${((peak - before) / 1048576).toFixed(0)} MB (560 MB of ICU memory before)`);
});

t.test('Intl behaves as before', async (t) => {
  const engine = await startEngine({ poolSize: 1 });
  t.teardown(() => engine.close());
  // Each expression runs in the sandbox and in this process.
  const expressions = [
    `new Intl.DateTimeFormat('pt-BR', { timeZone: 'UTC', dateStyle: 'full', timeStyle: 'short' }).format(1e12)`,
    `Intl.DateTimeFormat('en', { timeZone: 'UTC' }).format(0)`,
    `new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format(1234.5)`,
    `Intl.NumberFormat('en').format(12345678901234567890n)`,
    `['b', 'a', 'C'].sort(new Intl.Collator('en').compare).join()`,
    `new Intl.PluralRules('en').select(1)`,
    `new Intl.RelativeTimeFormat('pt-BR').format(-2, 'day')`,
    `new Intl.ListFormat('en').format(['a', 'b', 'c'])`,
    `new Intl.DisplayNames('en', { type: 'region' }).of('BR')`,
    `[...new Intl.Segmenter('en', { granularity: 'word' }).segment('hello big world')].filter((s) => s.isWordLike).map((s) => s.segment).join('|')`,
    `new Intl.Segmenter('en').segment('abc').containing(1).segment`,
    `new Intl.Locale('pt').maximize().toString()`,
    `new Intl.DateTimeFormat('en', { timeZone: 'UTC' }).formatRange(0, 864e5 * 3)`,
    `new Date(0).toLocaleString('pt-BR', { timeZone: 'UTC' })`,
    `(1234.5).toLocaleString('pt-BR')`,
    `'a'.localeCompare('B', 'en', { sensitivity: 'base' })`,
  ];
  const formatted = await run(engine, `return [${expressions.join(',\n')}]`);
  t.same(
    formatted.result,
    expressions.map((e) => new Function(`return ${e}`)()),
    'the same output as this process',
  );
  t.equal((formatted.result as string[])[9], 'hello|big|world');

  const shape = await run(
    engine,
    `const names = ['DateTimeFormat', 'NumberFormat', 'Collator', 'PluralRules', 'RelativeTimeFormat', 'ListFormat', 'DisplayNames', 'Segmenter', 'Locale', 'DurationFormat'];
    const out = {};
    for (const n of names) {
      const C = Intl[n];
      const d = Object.getOwnPropertyDescriptor(Intl, n);
      out[n] = [C.name, C.length, C.prototype.constructor === C, typeof C.supportedLocalesOf, 'value' in d && d.writable && !d.enumerable && d.configurable,
        Object.getOwnPropertyDescriptor(C, 'prototype').writable];
    }
    const g = Object.getOwnPropertyDescriptor(globalThis, 'Intl');
    class Money extends Intl.NumberFormat { twice(v) { return this.format(v * 2); } }
    const m = new Money('en');
    const without = (n) => { try { Intl[n]('en'); return 'made'; } catch (e) { return e.name; } };
    return { out, global: g.value === Intl && g.writable && !g.enumerable && g.configurable, v8BreakIterator: 'v8BreakIterator' in Intl,
      subclass: [m instanceof Money, m instanceof Intl.NumberFormat, m.twice(2)], without: ['DateTimeFormat', 'Collator', 'PluralRules', 'Segmenter', 'Locale'].map(without) };`,
  );
  const expected: Record<string, unknown[]> = {};
  for (const n of [
    'DateTimeFormat',
    'NumberFormat',
    'Collator',
    'PluralRules',
    'RelativeTimeFormat',
    'ListFormat',
    'DisplayNames',
    'Segmenter',
    'Locale',
    'DurationFormat',
  ]) {
    const C = (Intl as unknown as Record<string, { name: string; length: number; supportedLocalesOf?: unknown }>)[n];
    expected[n] = [C.name, C.length, true, typeof C.supportedLocalesOf, true, false];
  }
  t.same(
    shape.result,
    {
      out: expected,
      global: true,
      v8BreakIterator: false,
      subclass: [true, true, '4'],
      without: ['made', 'made', 'TypeError', 'TypeError', 'TypeError'],
    },
    'constructors keep their names, lengths, statics, prototypes and descriptors; subclasses work; v8BreakIterator is gone',
  );
});

t.test('a script cannot switch the guards off before it first reaches Intl', async (t) => {
  const engine = await startEngine({ poolSize: 1 });
  t.teardown(() => engine.close());
  // The guards install on first use of Intl, from what the prelude captured: a script that replaced what a naive
  // installer would call (array iteration, Reflect, Object.defineProperty) still gets charged formatters.
  const tampered = await run(
    engine,
    `
    Array.prototype[Symbol.iterator] = function* () {};
    Reflect.ownKeys = () => [];
    Reflect.construct = (C) => ({});
    const define = Object.defineProperty;
    Object.defineProperty = (o) => o;
    WeakMap.prototype.set = function () { return this; };
    const held = [];
    try { for (let i = 0; i < 20000; i++) held.push(new Intl.DateTimeFormat('en')); return 'accepted'; } catch (e) { return e.name; }`,
  );
  // Charged means stopped: by the charge's RangeError, or by isolated-vm's memory_limit when the script's own heap
  // grows while the charges fill the isolate's one budget (as in the first case above). Uncharged, the pile is
  // accepted or kills the host (`crashed`).
  const stopped = (r: Awaited<ReturnType<typeof run>>) => (r.ok ? r.result === 'RangeError' : r.error?.type === 'memory_limit');
  t.ok(stopped(tampered), `still charged (${tampered.error?.type ?? tampered.result})`);
  // Other ways to construct: another newTarget, the legacy call form, the constructor reached from an instance. Each
  // in its own execution, so that one pile's charges are not still in the heap when the next starts.
  const routes = [
    "Reflect.construct(Intl.DateTimeFormat, ['en'], class X {})",
    "Intl.DateTimeFormat.call(Object.create(Intl.DateTimeFormat.prototype), 'en')",
    "new (Object.getPrototypeOf(new Intl.RelativeTimeFormat('en')).constructor)('pt-BR')",
  ];
  for (const make of routes) {
    const r = await run(
      engine,
      `const held = []; try { for (let i = 0; i < 100000; i++) held.push(${make}); return 'accepted'; } catch (e) { return e.name; }`,
    );
    t.ok(stopped(r), `charged: ${make} (${r.error?.type ?? r.result})`);
  }
  const frozen = await run(engine, `Object.freeze(globalThis); return [new Intl.NumberFormat('en').format(1234.5), typeof Intl.DateTimeFormat]`);
  t.same(frozen.result, ['1,234.5', 'function'], 'a frozen global still reaches Intl');
  const assigned = await run(engine, `Intl = { mine: true }; return Intl.mine`);
  t.equal(assigned.result, true, 'the global can be replaced, as before');
});

t.test("one organization's Intl memory is not another's", async (t) => {
  // A pool of one: B runs on the isolate A filled to its limit with formatters (dead with A's context).
  const engine = await startEngine({ poolSize: 1, maxPoolSize: 1 });
  t.teardown(() => engine.close());
  const a = await run(
    engine,
    `const held = []; try { for (;;) held.push(new Intl.DateTimeFormat('en')); } catch (e) { return [e.name, held.length]; }`,
    'org_a',
  );
  t.ok(a.ok ? (a.result as [string, number])[0] === 'RangeError' : a.error?.type === 'memory_limit', `A is stopped (${a.error?.type ?? 'RangeError'})`);
  const b = await run(
    engine,
    `const buf = new Uint8Array(40 * 1024 * 1024); buf.fill(7); const f = new Intl.DateTimeFormat('en', { timeZone: 'UTC' });
    return [buf[buf.length - 1], f.format(0)]`,
    'org_b',
  );
  t.same(b.result, [7, '1/1/1970'], `B gets the whole limit (${b.error?.type ?? 'ok'} ${b.error?.message ?? ''})`);
});
