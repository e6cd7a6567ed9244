// Agents and access: the organization's MCP access state and scope ceiling, the OAuth apps holding tokens for it,
// and its API keys (a new key is shown once, on the page that created it). Owners and admins only.
import { type Locale, type Localized, SCOPES, type McpAccessSchema, type ApiKeySchema } from '../../../runtime-api/index.ts';
import type * as v from 'valibot';

// The shapes are the bindings' own output schemas (one source of truth).
type McpAccess = v.InferOutput<typeof McpAccessSchema>;
type ApiKey = v.InferOutput<typeof ApiKeySchema>;
import { actionForm, escapeHtml, timeTag, texts } from './layout.ts';
import { AGENTS } from './texts.ts';

export interface AgentsData {
  admin: boolean;
  /** Null: the server has no mcp_access bindings. */
  mcp: McpAccess | null;
  grants: { grantId: string; clientName: string | null; clientId: string; userEmail: string; scopes: string[]; createdAt: string; lastUsedAt: string | null }[];
  /** Null: the server has no api_keys bindings. */
  keys: ApiKey[] | null;
  /** The secret of a key just created, shown this once. */
  newKey?: { name: string; key: string };
}

function scopeBoxes(prefix: string, checked: readonly string[]): string {
  return SCOPES.map(
    (s) =>
      `<label><input type="checkbox" name="scopes" value="${s}" id="${prefix}-${s.replace(':', '-')}"${checked.includes(s) ? ' checked' : ''}> <code>${s}</code></label>`,
  ).join(' ');
}

export function agentsBody(locale: Locale, csrf: string, d: AgentsData): string {
  const t = texts(locale);
  if (!d.admin) return `<section><p>${t(AGENTS.adminsOnly)}</p></section>`;
  const never = t(AGENTS.never);
  const form = (action: string, inner: string, confirm?: string) => actionForm(action, csrf, inner, { locale, inline: true, ...(confirm ? { confirm } : {}) });
  const label = (table: Record<string, Localized>, key: string) => (table[key] ? t(table[key]) : escapeHtml(key));
  const mcp = d.mcp
    ? `<p>${t(AGENTS.mcpAccessIs)} <strong id="mcp-state">${label(AGENTS.mcpStates, d.mcp.state)}</strong>.</p>
${actionForm(
  'mcp-access-set',
  csrf,
  `<fieldset><legend>${t(AGENTS.accessState)}</legend>
${(['testing', 'active', 'revoked'] as const).map((s) => `<label><input type="radio" name="state" value="${s}"${s === d.mcp!.state ? ' checked' : ''}> ${t(AGENTS.mcpStates[s])}</label>`).join(' ')}</fieldset>
<fieldset><legend>${t(AGENTS.maxScopes)}</legend>${scopeBoxes('max', d.mcp.maxScopes)}</fieldset>
<button type="submit">${t(AGENTS.saveAccess)}</button>`,
  { locale },
)}
<p class="note">${t(AGENTS.revokedExplained)}</p>`
    : `<p class="note">${t(AGENTS.noMcpControl)}</p>`;
  const grants = d.grants.length
    ? `<table><thead><tr><th scope="col">${t(AGENTS.app)}</th><th scope="col">${t(AGENTS.allowedBy)}</th><th scope="col">${t(AGENTS.scopes)}</th><th scope="col">${t(AGENTS.since)}</th><th scope="col">${t(AGENTS.lastUse)}</th><th scope="col"></th></tr></thead><tbody>
${d.grants
  .map(
    (
      g,
    ) => `<tr><td>${escapeHtml(g.clientName ?? g.clientId)}</td><td>${escapeHtml(g.userEmail)}</td><td>${g.scopes.map((s) => `<code>${escapeHtml(s)}</code>`).join(' ')}</td><td>${timeTag(g.createdAt, never)}</td><td>${timeTag(g.lastUsedAt, never)}</td>
<td>${form('grant-revoke', `<input type="hidden" name="grantId" value="${escapeHtml(g.grantId)}"><button type="submit" class="danger" aria-label="${t(AGENTS.revokeGrantLabel(g.clientName ?? g.clientId, g.userEmail))}">${t(AGENTS.revoke)}</button>`)}</td></tr>`,
  )
  .join('\n')}</tbody></table>`
    : `<p class="note">${t(AGENTS.noApps)}</p>`;
  const created = d.newKey
    ? `<div class="notice" role="status"><p>${t(AGENTS.keyCreated(d.newKey.name))}</p>
<p><label>${t(AGENTS.key)} <input id="new-key" readonly value="${escapeHtml(d.newKey.key)}" size="60"></label></p></div>`
    : '';
  const keys =
    d.keys === null
      ? `<p class="note">${t(AGENTS.noApiKeys)}</p>`
      : `${created}${
          d.keys.length
            ? `<table><thead><tr><th scope="col">${t(AGENTS.name)}</th><th scope="col">${t(AGENTS.scopes)}</th><th scope="col">${t(AGENTS.state)}</th><th scope="col">${t(AGENTS.expires)}</th><th scope="col">${t(AGENTS.lastUse)}</th><th scope="col"></th></tr></thead><tbody>
${d.keys
  .map(
    (
      k,
    ) => `<tr><td>${escapeHtml(k.name)}</td><td>${k.scopes.map((s) => `<code>${escapeHtml(s)}</code>`).join(' ')}</td><td>${label(AGENTS.keyStates, k.state)}</td>
<td>${timeTag(k.expiresAt, '')}</td><td>${timeTag(k.lastUsedAt, never)}</td>
<td>${k.state === 'active' ? form('api-key-revoke', `<input type="hidden" name="keyId" value="${escapeHtml(k.keyId)}"><button type="submit" class="danger" aria-label="${t(AGENTS.revokeKeyLabel(k.name))}">${t(AGENTS.revoke)}</button>`) : ''}</td></tr>`,
  )
  .join('\n')}</tbody></table>`
            : `<p class="note">${t(AGENTS.noKeys)}</p>`
        }
<h3>${t(AGENTS.createKey)}</h3>
${actionForm(
  'api-key-create',
  csrf,
  `<label>${t(AGENTS.name)} <input name="name" id="key-name" required maxlength="100"></label>
<label>${t(AGENTS.expiresInDays)} <input type="number" name="expiresInDays" id="key-days" min="1" max="365" value="30"></label>
<fieldset><legend>${t(AGENTS.scopes)}</legend>${scopeBoxes('key', ['files:read'])}</fieldset>
<button type="submit">${t(AGENTS.createKeyButton)}</button>`,
  { locale },
)}`;
  return `<section aria-labelledby="mcp"><h2 id="mcp">${t(AGENTS.mcpAccess)}</h2>${mcp}</section>
<section aria-labelledby="apps"><h2 id="apps">${t(AGENTS.appsHoldingTokens)}</h2>${grants}</section>
<section aria-labelledby="keys"><h2 id="keys">${t(AGENTS.apiKeys)}</h2>${keys}</section>`;
}
