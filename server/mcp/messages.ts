// What the MCP endpoint says when it refuses a request, in both languages side by side: the credential, the methods
// a stateless endpoint does not serve, the per-token limit, the step-up for a scope, and the JSON-RPC messages it
// cannot process. The protocol's own names (versions, methods) are passed in: they come from the SDK.
import { ServiceError, l10n, scopeFix, type Credential, type Localized } from '../../runtime-api/index.ts';

/** Anything but a Bearer credential; `wwwAuthenticate` says where to get an access token. */
export function tokenRequired(wwwAuthenticate: string): ServiceError {
  return new ServiceError('unauthorized', {
    resolution: l10n(
      'Send an OAuth access token (discover the authorization server from the resource metadata in WWW-Authenticate) or an organization API key as Authorization: Bearer <token>; the session cookie does not reach MCP.',
      'Envie um token de acesso OAuth (descubra o servidor de autorização pelos metadados do recurso em WWW-Authenticate) ou uma chave de API da organização como Authorization: Bearer <token>; o cookie de sessão não vale no MCP.',
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

/**
 * A step-up challenge: `scope` is what to ask for (the token's scopes plus `needed`). An API key cannot step up:
 * its resolution says to create a key that holds the scope.
 */
export function stepUpRequired(needed: string, scope: string, wwwAuthenticate: string, credential: Credential): ServiceError {
  const fix = scopeFix(credential, needed);
  return new ServiceError('INSUFFICIENT_SCOPE', {
    resolution:
      credential === 'access-token'
        ? l10n(
            `This call needs the scope ${needed}; request a token with scope "${scope}" (within the organization's maxScopes).`,
            `Esta chamada exige o escopo ${needed}; peça um token com scope "${scope}" (dentro do maxScopes da organização).`,
          )
        : l10n(`This call needs the scope ${needed}. ${fix['en-US']}`, `Esta chamada exige o escopo ${needed}. ${fix['pt-BR']}`),
    headers: { 'WWW-Authenticate': wwwAuthenticate },
  });
}

/** A request the spec's own error answers (section 7): 400 `invalid_request` in the resolution shape. */
export function malformedRequest(method: string, resolution: Localized): ServiceError {
  return new ServiceError('invalid_request', {
    message: l10n(`The ${method} request is malformed.`, `A requisição ${method} está malformada.`),
    resolution,
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

/** The text of a `search` answer around the declarations, in the caller's language. */
export const SEARCH_TEXT = {
  noMatch: l10n(
    'No binding matches. Call search with an empty query to list every binding.',
    'Nenhuma binding corresponde. Chame search com uma query vazia para listar todas as bindings.',
  ),
  /** `why`: the refusal a call would get, already in the caller's language. */
  notCallable: (why: string) => l10n(`Not callable with your grant: ${why}`, `Não pode ser chamada com a sua autorização: ${why}`),
  example: (n: number) => l10n(`Example ${n}:`, `Exemplo ${n}:`),
  count: (shown: number, total: number) => l10n(`${shown} of ${total} matching bindings.`, `${shown} de ${total} bindings encontradas.`),
  usage: l10n(
    'search needs {"query": string, "limit"?: 1..50, "detail"?: "names"|"summary"|"full"}.',
    'search precisa de {"query": string, "limit"?: 1..50, "detail"?: "names"|"summary"|"full"}.',
  ),
};
