// search (the binding documentation, through MCP `search`) and ask (the public site, through /ask).
import { defineCommand } from '../command.ts';
import { usageError } from '../errors.ts';
import { t } from '../i18n.ts';
import { ask, callTool } from '../service.ts';

const limitOf = (value: unknown, max: number): number | undefined => {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max) throw usageError(`--limit: a whole number from 1 to ${max}`);
  return n;
};

export const searchCommand = defineCommand({
  name: 'search',
  args: '<words...>',
  summary: ['Search the sandbox bindings; prints their TypeScript declarations', 'Buscar as funções do sandbox; mostra suas declarações TypeScript'],
  details: ['Example: siglata search upload parts', 'Exemplo: siglata search upload parts'],
  options: {
    limit: { type: 'string', placeholder: 'N', help: ['At most N bindings', 'No máximo N funções'] },
    detail: { type: 'string', placeholder: 'LEVEL', help: ['names, summary or full (default full)', 'names, summary ou full (padrão full)'] },
  },
  positionals: { min: 1, name: 'words' },
  async run(ctx, values, words) {
    const detail = (values.detail as string | undefined) ?? 'full';
    if (!['names', 'summary', 'full'].includes(detail)) throw usageError('--detail: names, summary or full');
    const limit = limitOf(values.limit, 50);
    const out = await callTool(await ctx.api(), 'search', { query: words.join(' '), detail, ...(limit ? { limit } : {}) });
    if (ctx.json) ctx.printJson(out.structuredContent);
    else ctx.io.out(`${out.text || t('noResults')}\n`);
    return 0;
  },
});

export const askCommand = defineCommand({
  name: 'ask',
  args: '<question...>',
  summary: ['Search the public site (/ask); no sign-in needed', 'Buscar no site público (/ask); não precisa de acesso'],
  details: ['Example: siglata ask how do I resume an upload', 'Exemplo: siglata ask como retomar um envio'],
  options: {
    limit: { type: 'string', placeholder: 'N', help: ['At most N results, 1 to 20', 'No máximo N resultados, de 1 a 20'] },
  },
  positionals: { min: 1, name: 'question' },
  async run(ctx, values, words) {
    const body = await ask(await ctx.anonymous(), words.join(' '), limitOf(values.limit, 20));
    if (ctx.json) {
      ctx.printJson(body);
      return 0;
    }
    const results = (body.results ?? []) as { name: string; url: string; description?: string }[];
    if (!results.length) {
      ctx.io.out(`${t('noResults')}\n`);
      return 0;
    }
    ctx.io.out(`${results.map((r, i) => `${i + 1}. ${r.name}\n   ${r.url}${r.description ? `\n   ${r.description}` : ''}`).join('\n\n')}\n`);
    return 0;
  },
});
