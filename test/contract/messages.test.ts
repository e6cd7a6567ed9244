// User-facing texts live in one module per area, both languages side by side: no other file of runtime-api/ or
// server/ makes an l10n()/tr() call of its own (it throws or shows what its area's messages module names), and every
// pair in a messages module is filled in both languages and translated.
import t from 'tap';
import { readFileSync, readdirSync } from 'node:fs';
import { stripTypeScriptTypes } from 'node:module';
import { join, resolve } from 'node:path';
import { Parser } from 'acorn';
import { ERROR_TABLE } from '../../runtime-api/errors.ts';

const ROOT = resolve(import.meta.dirname, '../..');

/** Each area's messages modules: where its texts live. With SHARED_MESSAGES, the only files that may pair texts. */
const MESSAGES: Record<string, string[]> = {
  files: ['runtime-api/services/files-messages.ts'],
  archives: ['runtime-api/services/archive/messages.ts'],
  organizations: ['runtime-api/services/organization-messages.ts'],
  spreadsheets: ['runtime-api/services/spreadsheets/messages.ts'],
  identity: ['runtime-api/identity/messages.ts'],
  execution: ['runtime-api/execution/messages.ts'],
  'binding authorization': ['runtime-api/invoke-messages.ts'],
  MCP: ['server/mcp/messages.ts'],
  transfers: ['server/routes/transfers/messages.ts'],
  'sign-in endpoints': ['server/routes/auth/sign-in/messages.ts'],
  OAuth: ['server/oauth/messages.ts'],
  console: ['server/console/messages.ts', 'server/pages/console/texts.ts'],
  'HTTP plumbing': ['server/http/messages.ts'],
  pages: ['server/pages/texts.ts'],
};

/**
 * Modules that are their own place for the texts they hold (their pairs are checked all the same): the generic error
 * table (where l10n and tr are defined), the database's refusals beside the SQLSTATE mapping, and the list
 * convention's cursor refusal.
 */
const SHARED_MESSAGES = ['runtime-api/errors.ts', 'runtime-api/store/errors.ts', 'runtime-api/list-page.ts'];

/** The code held to it: every .ts file of these folders, so that a new file cannot start pairing texts inline. */
const CODE = ['runtime-api/', 'server/'];

/** English texts that are rightly the same in pt-BR (names, codes, loanwords). */
const SAME_IN_BOTH = new Set<string>(['Console', 'E-mail', 'Via', 'MCP', 'REST', 'CLI', 'Script', 'maxScopes', '${n} bytes']);

interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}
interface Pair {
  line: number;
  en: Node;
  pt: Node;
}

function filesOf(entry: string): string[] {
  if (!entry.endsWith('/')) return [entry];
  return readdirSync(join(ROOT, entry), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(entry, f))
    .sort();
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

/**
 * Every `l10n(en, pt)` and `tr(locale, en, pt)` call in the file (`calls`), and the error table's rows (`rows`):
 * `entry(status, shape, [message, resolution], [mensagem, resolução])` pairs each text by its position.
 */
function pairCalls(file: string): { source: string; calls: Pair[]; rows: Pair[] } {
  const { source, ast } = parse(file);
  const calls: Pair[] = [],
    rows: Pair[] = [];
  for (const node of walk(ast)) {
    if (node.type !== 'CallExpression') continue;
    const callee = node.callee as Node & { name?: string };
    const args = node.arguments as Node[];
    if (callee.type !== 'Identifier' || !['l10n', 'tr', 'entry'].includes(callee.name!)) continue;
    const line = lineAt(source, node.start);
    if (callee.name === 'l10n') calls.push({ line, en: args[0], pt: args[1] });
    if (callee.name === 'tr') calls.push({ line, en: args[1], pt: args[2] });
    if (callee.name === 'entry' && args[2]?.type === 'ArrayExpression' && args[3]?.type === 'ArrayExpression') {
      const en = args[2].elements as Node[],
        pt = args[3].elements as Node[];
      en.forEach((text, i) => rows.push({ line, en: text, pt: pt[i] }));
    }
  }
  return { source, calls, rows };
}

const isText = (n: Node | undefined) => !!n && ((n.type === 'Literal' && typeof n.value === 'string') || n.type === 'TemplateLiteral');

/** Whether a string or template literal has no text at all. */
function isEmpty(n: Node): boolean {
  if (n.type === 'Literal') return (n.value as string).trim() === '';
  const quasis = n.quasis as { value: { cooked: string } }[];
  return (n.expressions as unknown[]).length === 0 && quasis.every((q) => q.value.cooked.trim() === '');
}

const messageModules = [...Object.values(MESSAGES).flat(), ...SHARED_MESSAGES];

/** The files held to it: every file of CODE but the messages modules. */
function codeFiles(): string[] {
  const modules = new Set(messageModules);
  return CODE.flatMap(filesOf).filter((f) => !modules.has(f));
}

t.test("code pairs no texts of its own: they are in its area's messages module", async (t) => {
  const code = codeFiles();
  t.ok(code.length > 200, `${code.length} files read`);
  const inline = code.flatMap((file) => pairCalls(file).calls.map((c) => `${file}:${c.line}`));
  t.same(inline, [], "name a text of the area's messages module (MESSAGES) instead of writing l10n()/tr() here");
});

t.test('each messages module fills every pair in both languages and translates it', async (t) => {
  for (const file of messageModules) {
    const { source, calls, rows } = pairCalls(file);
    const texts = [...calls, ...rows].filter((c) => isText(c.en) && isText(c.pt));
    t.ok(texts.length > 0, `${file}: ${texts.length} pairs of texts`);
    const problems: string[] = [];
    for (const { line, en, pt } of texts) {
      const enText = source.slice(en.start, en.end),
        ptText = source.slice(pt.start, pt.end);
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
  const code = codeFiles();
  t.ok(code.includes('runtime-api/services/spreadsheets/xlsx.ts') && code.includes('server/routes/transfers/upload-part.ts'), 'nested folders are read');
  t.notOk(code.includes('server/mcp/messages.ts'), 'a messages module is not code');
  t.equal(pairCalls('runtime-api/errors.ts').rows.length, 2 * Object.keys(ERROR_TABLE).length, 'every row of the error table: its message and its resolution');
});
