// keys: organization API keys for CI jobs and headless agents (the api_keys_* bindings; owners and admins).
import { defineCommand } from '../command.ts';
import { usageError } from '../errors.ts';
import { unknownAction } from '../suggest.ts';
import { lang } from '../i18n.ts';
import { callBinding, callList } from '../service.ts';
import { shortDate, table } from '../format.ts';

interface ApiKey {
  id: string;
  name: string;
  scopes: string[];
  state: string;
  createdBy: string;
  createdAt: string;
  expiresAt: string;
  lastUsedAt: string | null;
  key?: string;
}

const ACTIONS = ['create', 'list', 'revoke'] as const;

export const keysCommand = defineCommand({
  name: 'keys',
  args: '<create NAME | list | revoke KEY-ID...>',
  summary: ['Organization API keys for CI and agents: create, list, revoke', 'Chaves de API da organização para CI e agentes: criar, listar, revogar'],
  details: [
    'A key is shown once, when created; use it as SIGLATA_TOKEN (or --token) with --server. It acts as you, within the\nscopes you give it (never beyond the organization\'s maxScopes), until it expires or is revoked.\n\nExamples:\n  siglata keys create ci-nightly --scope "files:read files:write" --expires-days 30\n  siglata keys list\n  siglata keys revoke key_…',
    'Uma chave é mostrada uma única vez, ao ser criada; use-a como SIGLATA_TOKEN (ou --token) com --server. Ela age como\nvocê, dentro dos escopos dados (nunca além do maxScopes da organização), até expirar ou ser revogada.\n\nExemplos:\n  siglata keys create ci-noturno --scope "files:read files:write" --expires-days 30\n  siglata keys list\n  siglata keys revoke key_…',
  ],
  options: {
    scope: {
      type: 'string',
      placeholder: 'SCOPES',
      help: [
        'create: scopes, space- or comma-separated (default: files:read files:write)',
        'create: escopos, separados por espaço ou vírgula (padrão: files:read files:write)',
      ],
    },
    'expires-days': {
      type: 'string',
      placeholder: 'N',
      help: ['create: days until it expires, 1 to 365 (default 90)', 'create: dias até expirar, de 1 a 365 (padrão 90)'],
    },
  },
  positionals: { min: 1, name: 'action' },
  async run(ctx, values, [action, ...rest]) {
    if (!(ACTIONS as readonly string[]).includes(action)) throw unknownAction('keys', action, ACTIONS);
    const api = await ctx.api();
    if (action === 'create') {
      if (rest.length !== 1) throw usageError('keys create NAME');
      const scopes = String(values.scope ?? 'files:read files:write')
        .split(/[\s,]+/)
        .filter(Boolean);
      const days = values['expires-days'] === undefined ? undefined : Number(values['expires-days']);
      const key = await callBinding<ApiKey>(api, 'api_keys_create', { name: rest[0], scopes, ...(days === undefined ? {} : { expiresInDays: days }) });
      if (ctx.json) {
        ctx.printJson(key);
        return 0;
      }
      ctx.io.out(`${key.key}\n`);
      ctx.io.err(
        lang() === 'pt-BR'
          ? `Chave ${key.id} (${key.scopes.join(' ')}) válida até ${shortDate(key.expiresAt)}. Guarde-a agora: ela não será mostrada de novo.\n`
          : `Key ${key.id} (${key.scopes.join(' ')}) valid until ${shortDate(key.expiresAt)}. Store it now: it will not be shown again.\n`,
      );
      return 0;
    }
    if (action === 'list') {
      if (rest.length) throw usageError('keys list');
      const keys = await callList<ApiKey>(api, 'api_keys_list', {});
      if (ctx.json) {
        ctx.printJson(keys);
        return 0;
      }
      const rows = keys.map((k) => [k.id, k.state, shortDate(k.expiresAt), shortDate(k.lastUsedAt), k.scopes.join(' '), k.createdBy, k.name]);
      ctx.io.out(`${table(['ID', 'STATE', 'EXPIRES', 'LAST USED', 'SCOPES', 'CREATED BY', 'NAME'], rows)}\n`);
      return 0;
    }
    if (!rest.length) throw usageError('keys revoke KEY-ID...');
    const revoked: ApiKey[] = [];
    for (const keyId of rest) revoked.push(await callBinding<ApiKey>(api, 'api_keys_revoke', { keyId }));
    if (ctx.json) ctx.printJson(revoked);
    else for (const k of revoked) ctx.io.out(`${k.id}  ${k.state}\n`);
    return 0;
  },
});
