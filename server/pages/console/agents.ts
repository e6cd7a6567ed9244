// Agents and access: the organization's MCP access state and scope ceiling, the OAuth apps holding tokens for it,
// and its API keys (a new key is shown once, on the page that created it). Owners and admins only.
import { type Locale, SCOPES, type McpAccessSchema, type ApiKeySchema } from '../../../runtime-api/index.ts';
import type * as v from 'valibot';

// The shapes are the bindings' own output schemas (one source of truth).
type McpAccess = v.InferOutput<typeof McpAccessSchema>;
type ApiKey = v.InferOutput<typeof ApiKeySchema>;
import { actionForm, escapeHtml, timeTag, texts } from './layout.ts';

export interface AgentsData {
  admin: boolean;
  /** Null: the server has no mcp_access bindings. */
  mcp: McpAccess | null;
  grants: { id: string; clientName: string | null; clientId: string; userEmail: string; scopes: string[]; createdAt: string; lastUsedAt: string | null }[];
  /** Null: the server has no api_keys bindings. */
  keys: ApiKey[] | null;
  /** The secret of a key just created, shown this once. */
  newKey?: { name: string; key: string };
}

function scopeBoxes(prefix: string, checked: readonly string[]): string {
  return SCOPES.map((s) => `<label><input type="checkbox" name="scopes" value="${s}" id="${prefix}-${s.replace(':', '-')}"${checked.includes(s) ? ' checked' : ''}> <code>${s}</code></label>`).join(' ');
}

export function agentsBody(locale: Locale, csrf: string, d: AgentsData): string {
  const t = texts(locale);
  if (!d.admin) return `<section><p>${t('Only owners and admins manage what agents may do.', 'Somente proprietários e administradores gerenciam o que os agentes podem fazer.')}</p></section>`;
  const never = t('never', 'nunca');
  const form = (action: string, inner: string, confirm?: string) => actionForm(action, csrf, inner, { locale, inline: true, ...(confirm ? { confirm } : {}) });
  const STATE: Record<string, [string, string]> = { testing: ['testing', 'em teste'], active: ['active', 'ativo'], revoked: ['revoked', 'revogado'] };
  const mcp = d.mcp
    ? `<p>${t('MCP access is', 'O acesso MCP está')} <strong id="mcp-state">${t(...STATE[d.mcp.state] ?? [d.mcp.state, d.mcp.state])}</strong>.</p>
${actionForm('mcp-access-set', csrf, `<fieldset><legend>${t('Access state', 'Estado do acesso')}</legend>
${(['testing', 'active', 'revoked'] as const).map((s) => `<label><input type="radio" name="state" value="${s}"${s === d.mcp!.state ? ' checked' : ''}> ${t(...STATE[s])}</label>`).join(' ')}</fieldset>
<fieldset><legend>${t('Most an agent may ever do here (maxScopes)', 'O máximo que um agente pode fazer aqui (maxScopes)')}</legend>${scopeBoxes('max', d.mcp.maxScopes)}</fieldset>
<button type="submit">${t('Save access', 'Salvar acesso')}</button>`, { locale })}
<p class="note">${t('Revoked: every agent token of this organization is refused at its next call.', 'Revogado: todo token de agente desta organização é recusado na próxima chamada.')}</p>`
    : `<p class="note">${t('This server does not offer MCP access control yet.', 'Este servidor ainda não oferece controle de acesso MCP.')}</p>`;
  const grants = d.grants.length
    ? `<table><thead><tr><th scope="col">${t('App', 'Aplicativo')}</th><th scope="col">${t('Allowed by', 'Autorizado por')}</th><th scope="col">${t('Scopes', 'Escopos')}</th><th scope="col">${t('Since', 'Desde')}</th><th scope="col">${t('Last use', 'Último uso')}</th><th scope="col"></th></tr></thead><tbody>
${d.grants.map((g) => `<tr><td>${escapeHtml(g.clientName ?? g.clientId)}</td><td>${escapeHtml(g.userEmail)}</td><td>${g.scopes.map((s) => `<code>${escapeHtml(s)}</code>`).join(' ')}</td><td>${timeTag(g.createdAt, never)}</td><td>${timeTag(g.lastUsedAt, never)}</td>
<td>${form('grant-revoke', `<input type="hidden" name="grantId" value="${escapeHtml(g.id)}"><button type="submit" class="danger" aria-label="${t(`Revoke ${g.clientName ?? g.clientId} (${g.userEmail})`, `Revogar ${g.clientName ?? g.clientId} (${g.userEmail})`)}">${t('Revoke', 'Revogar')}</button>`)}</td></tr>`).join('\n')}</tbody></table>`
    : `<p class="note">${t('No app holds tokens for this organization.', 'Nenhum aplicativo tem tokens para esta organização.')}</p>`;
  const created = d.newKey ? `<div class="notice" role="status"><p>${t(`API key “${d.newKey.name}” created. Copy it now: it will not be shown again.`, `Chave de API “${d.newKey.name}” criada. Copie agora: ela não será mostrada de novo.`)}</p>
<p><label>${t('Key', 'Chave')} <input id="new-key" readonly value="${escapeHtml(d.newKey.key)}" size="60"></label></p></div>` : '';
  const keys = d.keys === null
    ? `<p class="note">${t('This server does not offer API keys yet.', 'Este servidor ainda não oferece chaves de API.')}</p>`
    : `${created}${d.keys.length ? `<table><thead><tr><th scope="col">${t('Name', 'Nome')}</th><th scope="col">${t('Scopes', 'Escopos')}</th><th scope="col">${t('State', 'Estado')}</th><th scope="col">${t('Expires', 'Expira')}</th><th scope="col">${t('Last use', 'Último uso')}</th><th scope="col"></th></tr></thead><tbody>
${d.keys.map((k) => `<tr><td>${escapeHtml(k.name)}</td><td>${k.scopes.map((s) => `<code>${escapeHtml(s)}</code>`).join(' ')}</td><td>${t(...({ active: ['active', 'ativa'], expired: ['expired', 'expirada'], revoked: ['revoked', 'revogada'] } as Record<string, [string, string]>)[k.state] ?? [k.state, k.state])}</td>
<td>${timeTag(k.expiresAt, '')}</td><td>${timeTag(k.lastUsedAt, never)}</td>
<td>${k.state === 'active' ? form('api-key-revoke', `<input type="hidden" name="keyId" value="${escapeHtml(k.id)}"><button type="submit" class="danger" aria-label="${t(`Revoke the key ${k.name}`, `Revogar a chave ${k.name}`)}">${t('Revoke', 'Revogar')}</button>`) : ''}</td></tr>`).join('\n')}</tbody></table>`
      : `<p class="note">${t('No API key yet.', 'Nenhuma chave de API ainda.')}</p>`}
<h3>${t('Create an API key', 'Criar uma chave de API')}</h3>
${actionForm('api-key-create', csrf, `<label>${t('Name', 'Nome')} <input name="name" id="key-name" required maxlength="100"></label>
<label>${t('Expires in (days)', 'Expira em (dias)')} <input type="number" name="expiresInDays" id="key-days" min="1" max="365" value="30"></label>
<fieldset><legend>${t('Scopes', 'Escopos')}</legend>${scopeBoxes('key', ['files:read'])}</fieldset>
<button type="submit">${t('Create key', 'Criar chave')}</button>`, { locale })}`;
  return `<section aria-labelledby="mcp"><h2 id="mcp">${t('MCP access', 'Acesso MCP')}</h2>${mcp}</section>
<section aria-labelledby="apps"><h2 id="apps">${t('Apps holding tokens', 'Aplicativos com tokens')}</h2>${grants}</section>
<section aria-labelledby="keys"><h2 id="keys">${t('API keys', 'Chaves de API')}</h2>${keys}</section>`;
}
