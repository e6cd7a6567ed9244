// What the MCP endpoint says when it refuses a request, in both languages side by side: the credential, the methods
// a stateless endpoint does not serve, the per-token limit, the step-up for a scope, and the JSON-RPC messages it
// cannot process. The protocol's own names (versions, methods) are passed in: they come from the SDK.
import { ServiceError, l10n } from '../../runtime-api/index.ts';

/** Anything but an access token; `wwwAuthenticate` says where to get one. */
export function tokenRequired(wwwAuthenticate: string): ServiceError {
  return new ServiceError('unauthorized', {
    resolution: l10n(
      'Send an OAuth access token as Authorization: Bearer <token>; discover the authorization server from the resource metadata.',
      'Envie um token de acesso OAuth como Authorization: Bearer <token>; descubra o servidor de autorização pelos metadados do recurso.',
    ),
    headers: { 'WWW-Authenticate': wwwAuthenticate },
  });
}

export function statelessMethodNotAllowed(): ServiceError {
  return new ServiceError('method_not_allowed', {
    resolution: l10n(
      'This MCP endpoint is stateless: send JSON-RPC messages with POST; there is no SSE stream or session to open or delete.',
      'Este endpoint MCP não guarda estado: envie mensagens JSON-RPC com POST; não há fluxo SSE nem sessão para abrir ou excluir.',
    ),
  });
}

export function tooManyExecutions(max: number): ServiceError {
  return new ServiceError('rate_limited', {
    resolution: l10n(
      `At most ${max} executions may run at once per token; wait for one to finish.`,
      `No máximo ${max} execuções podem rodar ao mesmo tempo por token; espere uma terminar.`,
    ),
    headers: { 'Retry-After': '1' },
  });
}

/**
 * A scope the organization's ceiling excludes: asking for it again cannot help (consent and token exchange cap every
 * grant at maxScopes), so no step-up is offered; a person must widen the ceiling. `allowed`: the ceiling now.
 */
export function scopeBeyondCeiling(needed: string, allowed: readonly string[], consoleUrl: string, wwwAuthenticate: string): ServiceError {
  const list = allowed.join(' ');
  return new ServiceError('INSUFFICIENT_SCOPE', {
    message: l10n(
      `This call needs the scope ${needed}, which this organization does not allow agents (maxScopes: ${list || 'none'}).`,
      `Esta chamada exige o escopo ${needed}, que esta organização não permite a agentes (maxScopes: ${list || 'nenhum'}).`,
    ),
    resolution: l10n(
      `Requesting a new token will not help: ask an owner or admin of the organization to allow ${needed} under Agents and access in the console (${consoleUrl}).`,
      `Pedir um novo token não vai adiantar: peça a um proprietário ou administrador da organização que permita ${needed} em Agentes e acesso, no console (${consoleUrl}).`,
    ),
    details: { requiredScope: needed, maxScopes: [...allowed] },
    headers: { 'WWW-Authenticate': wwwAuthenticate },
  });
}

/** An API key without the scope: its scopes are fixed, so no token request can help; a new key can. */
export function keyLacksScope(needed: string, consoleUrl: string, wwwAuthenticate: string): ServiceError {
  return new ServiceError('INSUFFICIENT_SCOPE', {
    resolution: l10n(
      `This call needs the scope ${needed}, which this API key does not hold; a key's scopes never change. An owner or admin can create a key with ${needed} under Agents and access in the console (${consoleUrl}).`,
      `Esta chamada exige o escopo ${needed}, que esta chave de API não tem; os escopos de uma chave nunca mudam. Um proprietário ou administrador pode criar uma chave com ${needed} em Agentes e acesso, no console (${consoleUrl}).`,
    ),
    details: { requiredScope: needed },
    headers: { 'WWW-Authenticate': wwwAuthenticate },
  });
}

/** A step-up challenge: `scope` is what to ask for (the token's scopes plus `needed`). */
export function stepUpRequired(needed: string, scope: string, wwwAuthenticate: string): ServiceError {
  return new ServiceError('INSUFFICIENT_SCOPE', {
    resolution: l10n(
      `This call needs the scope ${needed}; request a token with scope "${scope}" (within the organization's maxScopes).`,
      `Esta chamada exige o escopo ${needed}; peça um token com scope "${scope}" (dentro do maxScopes da organização).`,
    ),
    headers: { 'WWW-Authenticate': wwwAuthenticate },
  });
}

/** Why a JSON-RPC message cannot be processed: the resolution its error carries. */
export const RPC_PROBLEMS = {
  notJson: l10n('The body is not valid JSON (UTF-8); send one JSON-RPC 2.0 object.', 'O corpo não é JSON válido (UTF-8); envie um objeto JSON-RPC 2.0.'),
  unsupportedVersion: (version: string, supported: readonly string[]) =>
    l10n(
      `Unsupported MCP-Protocol-Version ${version}; supported: ${supported.join(', ')}.`,
      `MCP-Protocol-Version ${version} não suportada; suportadas: ${supported.join(', ')}.`,
    ),
  batch: l10n('Send one JSON-RPC message per request; batches are not supported.', 'Envie uma mensagem JSON-RPC por requisição; lotes não são aceitos.'),
  /** `example`: a message to copy, as JSON. */
  notAnObject: (jsonrpc: string, example: string) => l10n(`Send a JSON-RPC ${jsonrpc} object: ${example}.`, `Envie um objeto JSON-RPC ${jsonrpc}: ${example}.`),
  noVersion: (jsonrpc: string) => l10n(`Add "jsonrpc": "${jsonrpc}" to the message.`, `Acrescente "jsonrpc": "${jsonrpc}" à mensagem.`),
  noMethod: (listTools: string, callTool: string) =>
    l10n(`Add a "method" string (e.g. "${listTools}" or "${callTool}").`, `Acrescente uma string "method" (por exemplo "${listTools}" ou "${callTool}").`),
  paramsNotObject: l10n('"params" must be an object.', '"params" precisa ser um objeto.'),
  badId: l10n('"id" must be a string or a number.', '"id" precisa ser uma string ou um número.'),
  /** `call`: the method is tools/call, whose params name the tool and its arguments. */
  paramsMissing: (method: string, call: boolean) =>
    l10n(
      `"${method}" needs a "params" object${call ? ' with "name" and "arguments"' : ''}.`,
      `"${method}" precisa de um objeto "params"${call ? ' com "name" e "arguments"' : ''}.`,
    ),
  noToolName: l10n('"params.name" must name the tool: "execute" or "search".', '"params.name" precisa nomear a ferramenta: "execute" ou "search".'),
  /** `problems`: the SDK schema's issues, as given. */
  paramsMismatch: (method: string, problems: string) =>
    l10n(`"params" of ${method} does not match the protocol: ${problems}.`, `"params" de ${method} não segue o protocolo: ${problems}.`),
};
