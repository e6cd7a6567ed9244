// A script's own `eval(...)` calls stay direct evals (they see the caller's variables, `arguments`, `this`,
// `new.target` and `super`, and declare `var`s there), while every source compiled still passes the prelude's cap.
//
// Why a rewrite: a direct eval is a call whose callee is the identifier `eval` bound to V8's own eval, so no
// replacement of the global eval can be one, and V8 compiles its argument without asking the script's code. The
// only check V8 gives the embedder is isolated-vm's code-generation callback, which refuses sources over an eighth
// of the heap limit (8 M characters at 64 MB); measured in a process like a sandbox host, a direct eval of an 8.3 M
// character source took +576 MB of RSS (one regular-expression literal) or +347 MB (function declarations), result
// ok, so the 100 KB cap must hold for direct evals too (docs/security.md, "Dynamic code").
//
// So the host rewrites the script (only when its text can name `eval`): the wrapper binds the name `eval` to V8's
// eval around the script, each call site `eval(a, ...)` becomes `eval(__sandboxEvalSource(a), ...)` (the argument
// is checked after V8 read the callee and before it compiles), and every other read of `eval` reads the global's
// (the guarded indirect eval). Source evaluated by a direct eval is not rewritten: one that mentions `eval` (or holds
// a \u escape, which could spell it) is evaluated indirectly instead, as is any argument once the script has
// replaced the global eval (its function is called, as V8 would): __sandboxEvalSource then returns the source
// `__sandboxEvalIndirect(n)`, which the direct eval runs. So no code reads the bound name but a checked call site.
// A script that declares or assigns `eval` itself, or spreads its first argument, is left as it was (indirect).
import { Parser, type Node } from 'acorn';

/**
 * Every spelling of the identifier `eval` (letters or \\u escapes) not inside a longer ASCII name. Source that does
 * not match cannot name it: the host leaves such a script unrewritten, and the prelude lets such a direct eval keep its
 * scope (one that matches, even in a string or as a property, is evaluated indirectly).
 */
export const SPELLS_EVAL = /(?<![\w$])(?:e|\\u(?:0065|\{0*65\}))(?:v|\\u(?:0076|\{0*76\}))(?:a|\\u(?:0061|\{0*61\}))(?:l|\\u(?:006[cC]|\{0*6[cC]\}))(?![\w$])/;

/** The wrapper's parameters: V8's eval, then the prelude's helpers (engine/prelude/resources.js, `__sandboxEvalKit`). */
export const EVAL_KIT_PARAMS = 'eval, __sandboxEvalSource, __sandboxEvalGlobal, __sandboxEvalIndirect';

type AnyNode = Node & Record<string, unknown>;
interface Edit {
  at: number;
  end: number;
  text: string;
}

const NOT_REFERENCES: Record<string, string[]> = {
  MemberExpression: ['property'],
  Property: ['key'],
  MethodDefinition: ['key'],
  PropertyDefinition: ['key'],
  LabeledStatement: ['label'],
  BreakStatement: ['label'],
  ContinueStatement: ['label'],
  MetaProperty: ['meta', 'property'],
};
const BINDINGS: Record<string, string[]> = {
  VariableDeclarator: ['id'],
  FunctionDeclaration: ['id', 'params'],
  FunctionExpression: ['id', 'params'],
  ArrowFunctionExpression: ['params'],
  ClassDeclaration: ['id'],
  ClassExpression: ['id'],
  CatchClause: ['param'],
  AssignmentExpression: ['left'],
  ForInStatement: ['left'],
  ForOfStatement: ['left'],
  UpdateExpression: ['argument'],
  AssignmentPattern: ['left'],
  ArrayPattern: ['elements'],
  RestElement: ['argument'],
  ObjectPattern: ['properties'],
};

/**
 * The script body with its `eval` call sites checked (see above), or null when it needs no rewrite (it cannot name
 * `eval`) or must not have one (it binds `eval` itself, or calls it with a spread first argument).
 */
export function rewriteDirectEval(body: string, prefix: string, suffix: string): string | null {
  if (!SPELLS_EVAL.test(body)) return null;
  let program: AnyNode;
  try {
    program = Parser.parse(prefix + body + suffix, { ecmaVersion: 'latest', sourceType: 'script' }) as unknown as AnyNode;
  } catch {
    return null;
  }
  const edits: Edit[] = [];
  let refused = false;
  const visit = (node: AnyNode, parent: AnyNode | null, key: string, grand: AnyNode | null) => {
    if (refused) return;
    if (node.type === 'Identifier' && node.name === 'eval' && parent !== null) {
      const p = parent;
      if (p.computed !== true && NOT_REFERENCES[p.type]?.includes(key) && !(p.type === 'Property' && p.shorthand)) return;
      // A shorthand `{ eval }` is key and value at once, and a property's value inside a pattern is a binding.
      if (
        BINDINGS[p.type]?.includes(key) ||
        (p.type === 'Property' && (p.shorthand || grand?.type === 'ObjectPattern')) ||
        (p.type === 'UnaryExpression' && p.operator === 'delete')
      ) {
        refused = true;
        return;
      }
      if (p.type === 'CallExpression' && key === 'callee' && !p.optional) {
        const args = p.arguments as AnyNode[];
        if (args.length === 0) return;
        if (args[0].type === 'SpreadElement') {
          refused = true;
          return;
        }
        // The first argument is visited on (its own evals are rewritten inside the insertions).
        edits.push({ at: args[0].start, end: args[0].start, text: '__sandboxEvalSource(' }, { at: args[0].end, end: args[0].end, text: ')' });
      } else {
        edits.push({ at: node.start, end: node.end, text: '(__sandboxEvalGlobal())' });
      }
      return;
    }
    for (const k of Object.keys(node)) {
      const v = node[k];
      if (Array.isArray(v)) {
        for (const c of v) if (c && typeof c === 'object' && typeof (c as AnyNode).type === 'string') visit(c as AnyNode, node, k, parent);
      } else if (v && typeof v === 'object' && typeof (v as AnyNode).type === 'string') visit(v as AnyNode, node, k, parent);
    }
  };
  visit(program, null, '', null);
  if (refused || edits.length === 0) return null;
  // Offsets are in the parsed text (prefix + body + suffix). Insertions at one offset keep their order of visit: a
  // call's opening comes before the first argument's own, its closing after (sorted stably by offset).
  const text = prefix + body + suffix;
  const ordered = edits
    .map((e, i) => ({ e, i }))
    .sort((a, b) => a.e.at - b.e.at || closingFirst(a.e, b.e) || a.i - b.i)
    .map((x) => x.e);
  let out = '';
  let at = prefix.length;
  for (const e of ordered) {
    out += text.slice(at, e.at) + e.text;
    at = e.end;
  }
  return out + text.slice(at, prefix.length + body.length);
}

/** At one offset, a closing parenthesis belongs to an argument that ends there, before anything that starts there. */
function closingFirst(a: Edit, b: Edit): number {
  return (a.text === ')' ? 0 : 1) - (b.text === ')' ? 0 : 1);
}
