// The shape of everything a script can reach from its global object, read inside a context: every object and
// function reachable from globalThis (own properties, getters and setters, prototypes), the intrinsics reachable only
// through syntax (AsyncFunction, the iterator prototypes…) and a few instances (Intl objects, buffers, a RegExp),
// each named by its shortest path. compareShapes lists how a sandbox context differs from a plain one.

/** One property as seen through its descriptor. */
export interface PropShape {
  kind: 'data' | 'accessor';
  writable?: boolean;
  enumerable: boolean;
  configurable: boolean;
  /** typeof the value ('null' for null); for objects and functions, `ref` names it. */
  type?: string;
  /** A primitive value, as text. */
  value?: string;
  ref?: string;
  get?: string;
  set?: string;
}

export interface NodeShape {
  path: string;
  parent: string | null;
  type: 'object' | 'function';
  proto: string | null;
  /** Function.prototype.toString of a function (as the context's own toString gives it), cut to 300 characters. */
  source?: string;
  props: Record<string, PropShape>;
  /**
   * Accessors read through this object (an instance: the getters of its prototype chain; otherwise its own): what
   * the read gave, and whether a second read gave the same value (`x.y === x.y`).
   */
  reads?: Record<string, { result: string; same: boolean }>;
}

export type Shape = Record<string, NodeShape>;

/** Objects reachable only through syntax or instances, named here and found the same way in both contexts. */
export const EXTRA_ROOTS: Record<string, string> = {
  '%AsyncFunction%': 'Object.getPrototypeOf(async function () {}).constructor',
  '%GeneratorFunction%': 'Object.getPrototypeOf(function* () {}).constructor',
  '%AsyncGeneratorFunction%': 'Object.getPrototypeOf(async function* () {}).constructor',
  '%ThrowTypeError%': 'Object.getOwnPropertyDescriptor(Function.prototype, "caller").get',
  '%ArrayIteratorPrototype%': 'Object.getPrototypeOf([][Symbol.iterator]())',
  '%StringIteratorPrototype%': 'Object.getPrototypeOf(""[Symbol.iterator]())',
  '%RegExpStringIteratorPrototype%': 'Object.getPrototypeOf("a".matchAll(/a/g))',
  '%MapIteratorPrototype%': 'Object.getPrototypeOf(new Map()[Symbol.iterator]())',
  '%SetIteratorPrototype%': 'Object.getPrototypeOf(new Set()[Symbol.iterator]())',
  '%IteratorHelperPrototype%': 'Object.getPrototypeOf([].values().map((x) => x))',
  '%WrapForValidIteratorPrototype%': 'Object.getPrototypeOf(Iterator.from({ next() { return { done: true }; } }))',
  '%SegmentsPrototype%': 'Object.getPrototypeOf(new Intl.Segmenter().segment("ab"))',
  '%SegmentIteratorPrototype%': 'Object.getPrototypeOf(new Intl.Segmenter().segment("ab")[Symbol.iterator]())',
  '(new Intl.NumberFormat())': 'new Intl.NumberFormat()',
  '(new Intl.DateTimeFormat())': 'new Intl.DateTimeFormat()',
  '(new Intl.Collator())': 'new Intl.Collator()',
  '(new Intl.PluralRules())': 'new Intl.PluralRules()',
  '(new Intl.ListFormat())': 'new Intl.ListFormat()',
  '(new Intl.RelativeTimeFormat())': 'new Intl.RelativeTimeFormat()',
  '(new Intl.DisplayNames(["en"], { type: "region" }))': 'new Intl.DisplayNames(["en"], { type: "region" })',
  '(new Intl.Segmenter())': 'new Intl.Segmenter()',
  '(new Intl.Locale("en-US"))': 'new Intl.Locale("en-US")',
  '(new ArrayBuffer(8))': 'new ArrayBuffer(8)',
  '(new Uint8Array(4))': 'new Uint8Array(4)',
  '(new DataView(new ArrayBuffer(8)))': 'new DataView(new ArrayBuffer(8))',
  '(/a/g)': '/a/g',
  '(new Function("return 1"))': 'new Function("return 1")',
  '(async function () {})': '(async function () {})',
  '(function* () {})': '(function* () {})',
  '(async function* () {})': '(async function* () {})',
  '(new Error("e"))': 'new Error("e")',
  '(Promise.resolve())': 'Promise.resolve()',
};

/** Evaluated as a script in the context: returns the shape as JSON text. */
export const WALKER = `(function () {
  var FTS = Function.prototype.toString;
  var ownKeys = Reflect.ownKeys, gopd = Object.getOwnPropertyDescriptor, gpo = Object.getPrototypeOf, apply = Reflect.apply;
  var known = new Map();
  Object.getOwnPropertyNames(Symbol).forEach(function (n) { if (typeof Symbol[n] === 'symbol') known.set(Symbol[n], 'Symbol.' + n); });
  var paths = new Map(), parents = new Map(), queue = [], nodes = {}, instances = new Set();
  function keyName(k) {
    if (typeof k === 'symbol') return '[' + (known.has(k) ? known.get(k) : String(k)) + ']';
    return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(k) ? '.' + k : '[' + JSON.stringify(k) + ']';
  }
  function isObj(v) { return (typeof v === 'object' && v !== null) || typeof v === 'function'; }
  function visit(v, path, parent) {
    if (!isObj(v) || paths.has(v)) return;
    paths.set(v, path); parents.set(v, parent); queue.push(v);
  }
  function ref(v) { return paths.get(v); }
  function summary(v) {
    if (isObj(v)) return (typeof v) + ' ' + ref(v);
    if (typeof v === 'symbol') return 'symbol ' + (known.get(v) || String(v));
    return typeof v + ' ' + String(v).slice(0, 100);
  }
  function sortKeys(keys) {
    var strings = keys.filter(function (k) { return typeof k === 'string'; }).sort();
    var symbols = keys.filter(function (k) { return typeof k === 'symbol'; }).map(function (k) { return [keyName(k), k]; }).sort(function (a, b) { return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0; }).map(function (p) { return p[1]; });
    return strings.concat(symbols);
  }
  var roots = ROOTS;
  function read(holder, receiver, key, getter, reads, path) {
    var first, second, ok = true;
    try { first = apply(getter, receiver, []); } catch (e) { ok = false; first = e; }
    if (!ok) { reads[keyName(key)] = { result: 'throws ' + (e2name(first)), same: true }; return; }
    try { second = apply(getter, receiver, []); } catch (e) { second = e; }
    if (isObj(first)) visit(first, path + keyName(key), path);
    reads[keyName(key)] = { result: summary(first), same: first === second || (first !== first && second !== second) };
  }
  function e2name(e) { try { return isObj(e) ? String(e.name) : typeof e; } catch (_) { return '?'; } }
  // Breadth first, so each object is named by a shortest path: everything reachable from globalThis first, then
  // from the intrinsics reachable only through syntax, then from the instances.
  var i = 0;
  visit(globalThis, 'globalThis', null);
  drain();
  for (var phase = 0; phase < 2; phase++) {
    for (var name in roots) {
      if ((name.charAt(0) === '(') !== (phase === 1)) continue;
      var value;
      try { value = roots[name](); } catch (e) { continue; }
      if (phase === 1) instances.add(value);
      visit(value, name, null);
    }
    drain();
  }
  return JSON.stringify(nodes);
  function drain() { for (; i < queue.length; i++) walk(queue[i]); }
  function walk(o) {
    var path = paths.get(o);
    var node = { path: path, parent: parents.get(o) ? paths.get(parents.get(o)) || parents.get(o) : null, type: typeof o === 'function' ? 'function' : 'object', proto: null, props: {} };
    var p = gpo(o);
    visit(p, path + '.[[Prototype]]', path);
    node.proto = p === null ? null : ref(p);
    if (typeof o === 'function') {
      try { node.source = String(apply(FTS, o, [])).slice(0, 300); } catch (e) { node.source = 'throws ' + e2name(e); }
    }
    var keys = sortKeys(ownKeys(o));
    for (var j = 0; j < keys.length; j++) {
      var k = keys[j], d = gopd(o, k), s = { enumerable: d.enumerable, configurable: d.configurable };
      if ('value' in d) {
        s.kind = 'data'; s.writable = d.writable;
        s.type = d.value === null ? 'null' : typeof d.value;
        if (isObj(d.value)) { visit(d.value, path + keyName(k), path); s.ref = ref(d.value); }
        else s.value = typeof d.value === 'symbol' ? (known.get(d.value) || String(d.value)) : String(d.value).slice(0, 100);
      } else {
        s.kind = 'accessor';
        if (d.get) { visit(d.get, 'get ' + path + keyName(k), path); s.get = ref(d.get); }
        if (d.set) { visit(d.set, 'set ' + path + keyName(k), path); s.set = ref(d.set); }
      }
      node.props[keyName(k)] = s;
    }
    // x.y === x.y: an instance's getters (its prototype chain's, short of Object.prototype), else its own.
    var reads = {};
    var holders = instances.has(o) ? [] : [o];
    if (instances.has(o)) for (var q = p; q !== null && q !== Object.prototype; q = gpo(q)) holders.push(q);
    for (var h = 0; h < holders.length; h++) {
      var hk = sortKeys(ownKeys(holders[h]));
      for (var m = 0; m < hk.length; m++) {
        var hd = gopd(holders[h], hk[m]);
        if (hd.get && !(keyName(hk[m]) in reads)) read(holders[h], o, hk[m], hd.get, reads, path);
      }
    }
    if (Object.keys(reads).length) node.reads = reads;
    nodes[path] = node;
  }
})()`;

export function walkerSource(): string {
  const roots = Object.entries(EXTRA_ROOTS)
    .map(([name, expr]) => `${JSON.stringify(name)}: function () { return ${expr}; }`)
    .join(',\n');
  return WALKER.replace('ROOTS', `{ ${roots} }`);
}

export interface AllowedDifference {
  /** removed: absent from the sandbox; added: only there; replaced: in both, differing (and all below it). */
  kind: 'removed' | 'added' | 'replaced';
  /** A property's path, as the shape names it (e.g. `globalThis.ArrayBuffer.prototype.resize`). */
  path: string;
  reason: string;
}

/** `global-differences.txt`: `removed|added|replaced <path> | reason`, one a line. */
export function parseAllowed(text: string): AllowedDifference[] {
  const out: AllowedDifference[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    const m = /^(removed|added|replaced)\s+(\S+)\s+\|\s+(\S.*)$/.exec(line);
    if (!m) throw new Error(`global-differences.txt: cannot read "${line}" (want "removed|added|replaced <path> | <reason>")`);
    out.push({ kind: m[1] as AllowedDifference['kind'], path: m[2], reason: m[3] });
  }
  return out;
}

function under(path: string, root: string): boolean {
  if (path === root) return true;
  // A getter or setter ("get X.y") goes with its property (X.y).
  for (const p of [path, path.replace(/^(get|set) /, '')]) {
    if (p === root || (p.startsWith(root) && (p[root.length] === '.' || p[root.length] === '['))) return true;
  }
  return false;
}

function show(v: unknown): string {
  return JSON.stringify(v);
}

function propText(p: PropShape | undefined): string {
  if (!p) return 'absent';
  const flags = `${p.kind === 'data' ? `w:${p.writable} ` : ''}e:${p.enumerable} c:${p.configurable}`;
  if (p.kind === 'accessor') return `accessor ${flags} get:${p.get ?? '-'} set:${p.set ?? '-'}`;
  return `data ${flags} ${p.type}${p.ref !== undefined ? ` ${p.ref}` : ''}${p.value !== undefined ? ` ${show(p.value)}` : ''}`;
}

/**
 * Every way the sandbox's shape differs from the plain one, short of the allowed differences; and the allowed
 * entries that matched nothing (stale ones), each as a line of text.
 */
export function compareShapes(plain: Shape, sandbox: Shape, allowed: readonly AllowedDifference[]): { differences: string[]; unused: AllowedDifference[] } {
  const differences: string[] = [];
  const used = new Set<AllowedDifference>();
  const removedRoot = (path: string) => allowed.find((a) => a.kind === 'removed' && under(path, a.path));
  const addedRoot = (path: string) => allowed.find((a) => a.kind === 'added' && under(path, a.path));
  const paths = [...new Set([...Object.keys(plain), ...Object.keys(sandbox)])].sort();
  for (const path of paths) {
    const a = plain[path];
    const b = sandbox[path];
    if (!b) {
      const r = removedRoot(path) ?? allowed.find((x) => x.kind === 'replaced' && under(path, x.path));
      if (r) {
        used.add(r);
        continue;
      }
      // Reported once, where it hangs from something both contexts have.
      if (a.parent === null || sandbox[a.parent]) differences.push(`${path}: missing in the sandbox`);
      continue;
    }
    if (!a) {
      const r = addedRoot(path) ?? allowed.find((x) => x.kind === 'replaced' && under(path, x.path));
      if (r) {
        used.add(r);
        continue;
      }
      if (b.parent === null || plain[b.parent]) differences.push(`${path}: only in the sandbox`);
      continue;
    }
    const replaced = allowed.find((x) => x.kind === 'replaced' && under(path, x.path));
    if (replaced) {
      used.add(replaced);
      continue;
    }
    if (removedRoot(path) || addedRoot(path)) continue;
    if (a.type !== b.type) differences.push(`${path}: a ${a.type} in plain, a ${b.type} in the sandbox`);
    if (a.proto !== b.proto) differences.push(`${path}: [[Prototype]] is ${a.proto} in plain, ${b.proto} in the sandbox`);
    if (a.source !== b.source)
      differences.push(`${path}: Function.prototype.toString gives ${show(a.source)} in plain, ${show(b.source?.slice(0, 120))} in the sandbox`);
    for (const key of [...new Set([...Object.keys(a.props), ...Object.keys(b.props)])].sort()) {
      const keyPath = path + key;
      const pa = a.props[key];
      const pb = b.props[key];
      const removed = allowed.find((x) => x.kind === 'removed' && x.path === keyPath);
      const added = allowed.find((x) => x.kind === 'added' && x.path === keyPath);
      const replacedKey = allowed.find((x) => x.kind === 'replaced' && x.path === keyPath);
      if (replacedKey && pa && pb) {
        used.add(replacedKey);
        continue;
      }
      if (removed) {
        used.add(removed);
        if (pb) differences.push(`${keyPath}: declared removed, but present in the sandbox (${propText(pb)})`);
        continue;
      }
      if (added && !pa) {
        used.add(added);
        continue;
      }
      if (propText(pa) !== propText(pb)) differences.push(`${keyPath}: ${propText(pa)} in plain, ${propText(pb)} in the sandbox`);
    }
    const ra = a.reads ?? {};
    const rb = b.reads ?? {};
    for (const key of [...new Set([...Object.keys(ra), ...Object.keys(rb)])].sort()) {
      const keyPath = path + key;
      if (allowed.some((x) => x.kind === 'removed' && (x.path === keyPath || x.path.endsWith(key)) && !rb[key])) continue;
      const x = ra[key];
      const y = rb[key];
      if (!x || !y) {
        differences.push(`${keyPath} (read): ${x ? x.result : 'absent'} in plain, ${y ? y.result : 'absent'} in the sandbox`);
        continue;
      }
      if (x.result !== y.result) differences.push(`${keyPath} (read): ${x.result} in plain, ${y.result} in the sandbox`);
      if (x.same !== y.same)
        differences.push(
          `${keyPath} (read twice): ${x.same ? 'the same value' : 'different values'} in plain, ${y.same ? 'the same value' : 'different values'} in the sandbox`,
        );
    }
  }
  return { differences, unused: allowed.filter((x) => !used.has(x)) };
}
