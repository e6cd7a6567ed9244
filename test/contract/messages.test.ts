// User-facing texts live in one module per area, both languages side by side: the code of an area listed here makes
// no l10n()/tr() call of its own (it throws or shows what its messages module names), and every pair in a messages
// module is filled in both languages and translated. Areas not listed yet still write their pairs inline.
import t from 'tap';
import { readFileSync, readdirSync } from 'node:fs';
import { stripTypeScriptTypes } from 'node:module';
import { join, resolve } from 'node:path';
import { Parser } from 'acorn';

const ROOT = resolve(import.meta.dirname, '../..');

interface Area {
  /** Where the area's texts live; the only files of the area that may pair texts. */
  messages: string[];
  /** The area's code: files, or folders (ending in `/`) whose .ts files all count. */
  code: string[];
}

const AREAS: Record<string, Area> = {
  files: {
    messages: ['runtime-api/services/files-messages.ts'],
    code: [
      'runtime-api/services/uploads.ts', 'runtime-api/services/trash.ts', 'runtime-api/services/files.ts', 'runtime-api/services/quota.ts',
      'runtime-api/bindings/files/', 'runtime-api/bindings/uploads/',
    ],
  },
  organizations: {
    messages: ['runtime-api/services/organization-messages.ts'],
    code: [
      'runtime-api/services/membership.ts', 'runtime-api/services/invitations.ts', 'runtime-api/services/organization-create.ts',
      'runtime-api/bindings/organization/', 'runtime-api/bindings/mcp/', 'runtime-api/bindings/oauth/',
    ],
  },
  spreadsheets: {
    messages: ['runtime-api/services/spreadsheets/messages.ts'],
    code: ['runtime-api/services/spreadsheets/', 'runtime-api/bindings/spreadsheets/'],
  },
  execution: {
    messages: ['runtime-api/execution/messages.ts'],
    code: ['runtime-api/execution/'],
  },
  'binding authorization': {
    messages: ['runtime-api/invoke-messages.ts'],
    code: ['runtime-api/invoke.ts'],
  },
  identity: {
    messages: ['runtime-api/identity/messages.ts'],
    code: ['runtime-api/identity/'],
  },
  MCP: {
    messages: ['server/mcp/messages.ts'],
    code: ['server/mcp/'],
  },
  transfers: {
    messages: ['server/routes/transfers/messages.ts'],
    code: ['server/routes/transfers/'],
  },
  'sign-in endpoints': {
    messages: ['server/routes/auth/sign-in/messages.ts'],
    code: ['server/routes/auth/'],
  },
  OAuth: {
    messages: ['server/oauth/messages.ts'],
    code: ['server/oauth/', 'server/routes/oauth/'],
  },
  console: {
    messages: ['server/console/messages.ts', 'server/pages/console/texts.ts'],
    code: ['server/console/', 'server/routes/console.ts'],
  },
  'HTTP plumbing': {
    messages: ['server/http/messages.ts'],
    code: [
      'server/http/', 'server/middleware/origin.ts', 'server/middleware/rate-limit.ts', 'server/middleware/method-not-allowed.ts',
      'server/middleware/error-handler.ts', 'server/oauth/limits.ts', 'server/ops/metrics-endpoint.ts',
    ],
  },
  pages: {
    messages: ['server/pages/texts.ts', 'server/pages/console/texts.ts'],
    code: ['server/pages/'],
  },
};

/**
 * Modules that are their own place for the texts they hold (their pairs are checked all the same): the database's
 * refusals beside the SQLSTATE mapping, and the list convention's cursor refusal.
 */
const SHARED_MESSAGES = [
  'runtime-api/store/errors.ts', 'runtime-api/list-page.ts',
];

/** English texts that are rightly the same in pt-BR (names, codes, loanwords). */
const SAME_IN_BOTH = new Set<string>(['Console', 'E-mail', 'Via']);

interface Node { type: string; start: number; end: number; [key: string]: unknown }
interface Pair { line: number; en: Node; pt: Node }

function filesOf(entry: string): string[] {
  if (!entry.endsWith('/')) return [entry];
  return readdirSync(join(ROOT, entry), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts')).map((f) => join(entry, f)).sort();
}

function parse(file: string): { source: string; ast: Node } {
  const source = stripTypeScriptTypes(readFileSync(join(ROOT, file), 'utf8'));
  return { source, ast: Parser.parse(source, { ecmaVersion: 'latest', sourceType: 'module' }) as unknown as Node };
}

function* walk(node: unknown): Generator<Node> {
  if (Array.isArray(node)) {
    for (const n of node) yield* walk(n);
  } else if (node && typeof node === 'object' && typeof (node as Node).type === 'string') {
    yield node as Node;
    for (const value of Object.values(node)) if (value && typeof value === 'object') yield* walk(value);
  }
}

const lineAt = (source: string, offset: number) => source.slice(0, offset).split('\n').length;

/** Every `l10n(en, pt)` and `tr(locale, en, pt)` call in the file. */
function pairCalls(file: string): { source: string; calls: Pair[] } {
  const { source, ast } = parse(file);
  const calls: Pair[] = [];
  for (const node of walk(ast)) {
    if (node.type !== 'CallExpression') continue;
    const callee = node.callee as Node & { name?: string };
    const args = node.arguments as Node[];
    if (callee.type !== 'Identifier') continue;
    if (callee.name === 'l10n') calls.push({ line: lineAt(source, node.start), en: args[0], pt: args[1] });
    if (callee.name === 'tr') calls.push({ line: lineAt(source, node.start), en: args[1], pt: args[2] });
  }
  return { source, calls };
}

const isText = (n: Node | undefined) => !!n && ((n.type === 'Literal' && typeof n.value === 'string') || n.type === 'TemplateLiteral');

/** Whether a string or template literal has no text at all. */
function isEmpty(n: Node): boolean {
  if (n.type === 'Literal') return (n.value as string).trim() === '';
  const quasis = n.quasis as { value: { cooked: string } }[];
  return (n.expressions as unknown[]).length === 0 && quasis.every((q) => q.value.cooked.trim() === '');
}

t.test('an area\'s code pairs no texts of its own: they are in its messages module', async (t) => {
  for (const [name, area] of Object.entries(AREAS)) {
    const messages = new Set(area.messages);
    const code = area.code.flatMap(filesOf).filter((f) => !messages.has(f));
    t.ok(code.length > 0, `${name}: ${code.length} files read`);
    const inline = code.flatMap((file) => pairCalls(file).calls.map((c) => `${file}:${c.line}`));
    t.same(inline, [], `${name}: name a text of ${area.messages.join(', ')} instead of writing l10n()/tr() here`);
  }
});

t.test('each messages module fills every pair in both languages and translates it', async (t) => {
  const modules = [...Object.values(AREAS).flatMap((a) => a.messages), ...SHARED_MESSAGES];
  for (const file of modules) {
    const { source, calls } = pairCalls(file);
    const texts = calls.filter((c) => isText(c.en) && isText(c.pt));
    t.ok(texts.length > 0, `${file}: ${texts.length} pairs of texts`);
    const problems: string[] = [];
    for (const { line, en, pt } of texts) {
      const enText = source.slice(en.start, en.end), ptText = source.slice(pt.start, pt.end);
      if (isEmpty(en) || isEmpty(pt)) problems.push(`${file}:${line}: an empty text`);
      else if (enText === ptText && !SAME_IN_BOTH.has(enText.slice(1, -1))) problems.push(`${file}:${line}: the pt-BR text is the English one: ${enText}`);
    }
    t.same(problems, [], `${file}: every pair filled and translated`);
  }
});

t.test('the checks see what they look for', async (t) => {
  const text = (source: string) => Parser.parse(source, { ecmaVersion: 'latest' }) as unknown as Node;
  const [empty, template, filled] = [...walk(text('f("", `${a}`, ` x `)'))].filter((n) => n.type === 'Literal' || n.type === 'TemplateLiteral');
  t.ok(isEmpty(empty));
  t.notOk(isEmpty(template), 'a template with an interpolation has text');
  t.notOk(isEmpty(filled));
  t.ok(filesOf('runtime-api/bindings/files/').includes('runtime-api/bindings/files/files_update.ts'), 'a folder lists its files');
});
