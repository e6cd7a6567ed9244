// Agents and access: the organization's MCP access state and scope ceiling (each state explained), the OAuth apps
// holding tokens for it, and its API keys (a new key is shown once, on the page that created it). Revoking an app or
// a key asks first. Owners and admins only.
import { type Locale, type Localized, SCOPES, type McpAccessSchema, type ApiKeySchema } from '../../../runtime-api/index.ts';
import type * as v from 'valibot';
import { actionForm, escapeHtml, table, timeTag, texts, typed, valueAttr, type Prefill } from './layout.ts';
import { AGENTS } from './texts.ts';
import { OAUTH } from '../texts.ts';

// The shapes are the bindings' own output schemas (one source of truth).
type McpAccess = v.InferOutput<typeof McpAccessSchema>;
type ApiKey = v.InferOutput<typeof ApiKeySchema>;

export interface AgentsData {
  admin: boolean;
  /** Null: the server has no mcp_access bindings. */
  mcp: McpAccess | null;
  grants: { grantId: string; clientName: string | null; clientId: string; userEmail: string; scopes: string[]; createdAt: string; lastUsedAt: string | null }[];
  /** Null: the server has no api_keys bindings. */
  keys: ApiKey[] | null;
  /** The secret of a key just created, shown this once. */
  newKey?: { name: string; key: string };
  prefill?: Prefill;
}

const STATES = ['testing', 'active', 'revoked'] as const;

/** A checkbox per scope, each with what it allows (the consent page's words). */
function scopeBoxes(locale: Locale, prefix: string, checked: readonly string[]): string {
  return SCOPES.map(
    (s) =>
      `<label class="choice"><input type="checkbox" name="scopes" value="${s}" id="${prefix}-${s.replace(':', '-')}"${checked.includes(s) ? ' checked' : ''}> <span><code>${s}</code> <span class="note">${escapeHtml(OAUTH.scopes[s]?.[locale] ?? '')}</span></span></label>`,
  ).join('\n');
}

function mcpSection(locale: Locale, csrf: string, d: AgentsData): string {
  const t = texts(locale);
  if (!d.mcp) return `<p class="note">${t(AGENTS.noMcpControl)}</p>`;
  const mcp = d.mcp;
  const state = typed(d.prefill, 'mcp-access-set', 'state') ?? mcp.state;
  const scopes = d.prefill?.action === 'mcp-access-set' ? d.prefill.values.getAll('scopes') : mcp.maxScopes;
  const noScopes = !mcp.maxScopes.length && mcp.state !== 'revoked' ? `<p class="warning" role="status">${t(AGENTS.noScopesNow)}</p>` : '';
  const confirmNone = d.prefill?.action === 'mcp-access-set' && !scopes.length && state !== 'revoked';
  return `<p>${t(AGENTS.mcpAccessIs)} <strong id="mcp-state">${t(AGENTS.mcpStates[mcp.state])}</strong>. <span class="note">${t(AGENTS.stateMeans[mcp.state])}</span></p>
${noScopes}
${actionForm(
  'mcp-access-set',
  csrf,
  `<fieldset><legend>${t(AGENTS.accessState)}</legend>
${STATES.map(
  (s) =>
    `<label class="choice"><input type="radio" name="state" value="${s}" id="state-${s}"${s === state ? ' checked' : ''} aria-describedby="state-${s}-means"> <span><strong>${t(AGENTS.mcpStates[s])}</strong> <span class="note" id="state-${s}-means">${t(AGENTS.stateMeans[s])}</span></span></label>`,
).join('\n')}</fieldset>
<fieldset><legend>${t(AGENTS.maxScopes)}</legend>
<p class="note">${t(AGENTS.maxScopesExplained)}</p>
${scopeBoxes(locale, 'max', scopes)}</fieldset>
${confirmNone ? `<p><label class="choice"><input type="checkbox" name="allowNone" value="1" id="allow-none"> <span>${t(AGENTS.allowNone)}</span></label></p>` : ''}
<button type="submit">${t(AGENTS.saveAccess)}</button>`,
  { locale, confirmNoScopes: t(AGENTS.confirmNoScopes) },
)}
<p class="note">${t(AGENTS.historyOnActivity)} <a href="/console/activity?lang=${locale}#mcp-history">${t(AGENTS.seeHistory)}</a></p>`;
}

export function agentsBody(locale: Locale, csrf: string, d: AgentsData): string {
  const t = texts(locale);
  if (!d.admin) return `<section><p>${t(AGENTS.adminsOnly)}</p></section>`;
  const never = t(AGENTS.never);
  const form = (action: string, inner: string, confirm?: string) => actionForm(action, csrf, inner, { locale, inline: true, ...(confirm ? { confirm } : {}) });
  const label = (tbl: Record<string, Localized>, key: string) => (tbl[key] ? t(tbl[key]) : escapeHtml(key));
  const grants = d.grants.length
    ? table(
        [
          { label: t(AGENTS.app) },
          { label: t(AGENTS.allowedBy) },
          { label: t(AGENTS.scopes) },
          { label: t(AGENTS.since) },
          { label: t(AGENTS.lastUse) },
          { label: '' },
        ],
        d.grants.map((g) => {
          const app = g.clientName ?? g.clientId;
          return [
            escapeHtml(app),
            escapeHtml(g.userEmail),
            g.scopes.map((s) => `<code>${escapeHtml(s)}</code>`).join(' '),
            timeTag(g.createdAt, never),
            timeTag(g.lastUsedAt, never),
            form(
              'grant-revoke',
              `<input type="hidden" name="grantId" value="${escapeHtml(g.grantId)}"><button type="submit" class="danger" aria-label="${t(AGENTS.revokeGrantLabel(app, g.userEmail))}">${t(AGENTS.revoke)}</button>`,
              AGENTS.revokeGrantConfirm(app, g.userEmail)[locale],
            ),
          ];
        }),
      )
    : `<p class="note">${t(AGENTS.noApps)}</p>`;
  const created = d.newKey
    ? `<div class="notice" role="status"><p>${t(AGENTS.keyCreated(d.newKey.name))}</p>
<p><label>${t(AGENTS.key)} <input id="new-key" readonly value="${escapeHtml(d.newKey.key)}" size="60"></label></p></div>`
    : '';
  const keyScopes = d.prefill?.action === 'api-key-create' ? d.prefill.values.getAll('scopes') : ['files:read'];
  const keys =
    d.keys === null
      ? `<p class="note">${t(AGENTS.noApiKeys)}</p>`
      : `${created}${
          d.keys.length
            ? table(
                [
                  { label: t(AGENTS.name) },
                  { label: t(AGENTS.scopes) },
                  { label: t(AGENTS.state) },
                  { label: t(AGENTS.expires) },
                  { label: t(AGENTS.lastUse) },
                  { label: '' },
                ],
                d.keys.map((k) => [
                  escapeHtml(k.name),
                  k.scopes.map((s) => `<code>${escapeHtml(s)}</code>`).join(' '),
                  label(AGENTS.keyStates, k.state),
                  timeTag(k.expiresAt, ''),
                  timeTag(k.lastUsedAt, never),
                  k.state === 'active'
                    ? form(
                        'api-key-revoke',
                        `<input type="hidden" name="keyId" value="${escapeHtml(k.keyId)}"><button type="submit" class="danger" aria-label="${t(AGENTS.revokeKeyLabel(k.name))}">${t(AGENTS.revoke)}</button>`,
                        AGENTS.revokeKeyConfirm(k.name)[locale],
                      )
                    : '',
                ]),
              )
            : `<p class="note">${t(AGENTS.noKeys)}</p>`
        }
<h3>${t(AGENTS.createKey)}</h3>
${actionForm(
  'api-key-create',
  csrf,
  `<label>${t(AGENTS.name)} <input name="name" id="key-name" required maxlength="100"${valueAttr(d.prefill, 'api-key-create', 'name')}></label>
<label>${t(AGENTS.expiresInDays)} <input type="number" name="expiresInDays" id="key-days" min="1" max="365"${valueAttr(d.prefill, 'api-key-create', 'expiresInDays', '30')}></label>
<fieldset><legend>${t(AGENTS.scopes)}</legend>${scopeBoxes(locale, 'key', keyScopes)}</fieldset>
<button type="submit">${t(AGENTS.createKeyButton)}</button>`,
  { locale },
)}`;
  return `<section aria-labelledby="mcp"><h2 id="mcp">${t(AGENTS.mcpAccess)}</h2>${mcpSection(locale, csrf, d)}</section>
<section aria-labelledby="apps"><h2 id="apps">${t(AGENTS.appsHoldingTokens)}</h2>${grants}</section>
<section aria-labelledby="keys"><h2 id="keys">${t(AGENTS.apiKeys)}</h2>${keys}</section>`;
}
