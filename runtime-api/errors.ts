// The one error class and the one table of every error code: its HTTP status, its JSON shape and its
// localized message and resolution. A throw site names a code; it never picks a status.

export type Locale = 'en-US' | 'pt-BR';
export const LOCALES: readonly Locale[] = ['en-US', 'pt-BR'];

/** `typed` = `{code, message}` (domain state); `resolution` = `{error: {code, message, resolution}}` (request/auth). */
export type ErrorShape = 'typed' | 'resolution';

interface ErrorEntry {
  status: number;
  shape: ErrorShape;
  message: Record<Locale, string>;
  resolution: Record<Locale, string>;
}

function entry(status: number, shape: ErrorShape, en: [string, string], pt: [string, string]): ErrorEntry {
  return { status, shape, message: { 'en-US': en[0], 'pt-BR': pt[0] }, resolution: { 'en-US': en[1], 'pt-BR': pt[1] } };
}

/** Spec section 7 codes verbatim (mixed casing included), then ours. */
export const ERROR_TABLE = {
  invalid_input: entry(
    400,
    'resolution',
    ['Parameters failed validation.', 'Fix the field named in the resolution and send the request again.'],
    ['Os parâmetros não passaram na validação.', 'Corrija o campo indicado na resolução e envie a requisição de novo.'],
  ),
  part_mismatch: entry(
    400,
    'typed',
    ['The part size does not match the reservation.', 'Send exactly 8,388,608 bytes, or the exact remainder for the final part.'],
    ['O tamanho da parte não corresponde à reserva.', 'Envie exatamente 8.388.608 bytes, ou o restante exato na parte final.'],
  ),
  upload_incomplete: entry(
    400,
    'typed',
    ['The upload is missing parts.', 'Send the missing parts, then complete the upload again.'],
    ['O envio não tem todas as partes.', 'Envie as partes que faltam e conclua o envio de novo.'],
  ),
  SESSION_EXPIRED: entry(
    401,
    'resolution',
    ['Your session has expired.', 'Sign in again to get a new session.'],
    ['Sua sessão expirou.', 'Entre de novo para obter uma nova sessão.'],
  ),
  INSUFFICIENT_SCOPE: entry(
    403,
    'resolution',
    [
      'The grant lacks the scope this operation needs.',
      "Use a credential that holds the needed scope (a new access token, or an API key created with it, within the organization's maxScopes), or ask for a role that grants it.",
    ],
    [
      'A autorização não tem o escopo que esta operação exige.',
      'Use uma credencial que tenha o escopo necessário (um novo token de acesso, ou uma chave de API criada com ele, dentro do maxScopes da organização), ou peça um papel que o conceda.',
    ],
  ),
  MCP_ACCESS_REVOKED: entry(
    403,
    'resolution',
    ['MCP access for this organization is revoked.', 'Ask an owner or admin of the organization to restore MCP access.'],
    ['O acesso MCP desta organização foi revogado.', 'Peça a um proprietário ou administrador da organização que restaure o acesso MCP.'],
  ),
  ORGANIZATION_MEMBERSHIP_REQUIRED: entry(
    403,
    'resolution',
    ['You are not an active member of this organization.', 'Use an organization you belong to, or ask for an invitation.'],
    ['Você não é membro ativo desta organização.', 'Use uma organização da qual você faz parte, ou peça um convite.'],
  ),
  ORGANIZATION_ADMIN_REQUIRED: entry(
    403,
    'resolution',
    ['This operation needs the owner or admin role.', 'Ask an owner or admin of the organization to do it, or to change your role.'],
    ['Esta operação exige o papel de proprietário ou administrador.', 'Peça a um proprietário ou administrador que a faça, ou que mude o seu papel.'],
  ),
  ORIGIN_NOT_ALLOWED: entry(
    403,
    'resolution',
    ['The request origin is not allowed.', 'Send the request from an allowed origin, or without an Origin header from a non-browser client.'],
    [
      'A origem da requisição não é permitida.',
      'Envie a requisição de uma origem permitida, ou sem cabeçalho Origin a partir de um cliente fora do navegador.',
    ],
  ),
  not_found: entry(
    404,
    'typed',
    ['Not found.', 'Check the identifier; it may belong to another organization or have been deleted.'],
    ['Não encontrado.', 'Confira o identificador; ele pode pertencer a outra organização ou ter sido excluído.'],
  ),
  INVITATION_NOT_FOUND: entry(
    404,
    'typed',
    ['The invitation does not exist or is no longer pending.', 'Ask for a new invitation.'],
    ['O convite não existe ou não está mais pendente.', 'Peça um novo convite.'],
  ),
  quota_exceeded: entry(
    409,
    'typed',
    ["The upload would exceed the organization's storage quota.", 'Delete files or empty the trash, then try again.'],
    ['O envio excederia a cota de armazenamento da organização.', 'Exclua arquivos ou esvazie a lixeira e tente de novo.'],
  ),
  conflict: entry(
    409,
    'typed',
    ['The request conflicts with the current state.', 'Read the current state and retry.'],
    ['A requisição conflita com o estado atual.', 'Leia o estado atual e tente de novo.'],
  ),
  path_taken: entry(
    409,
    'typed',
    [
      'An active file already has this path.',
      'Say what to do with the file there (onConflict: "replace" moves it to the trash, "rename" puts yours beside it), or use another path.',
    ],
    [
      'Um arquivo ativo já tem este caminho.',
      'Diga o que fazer com o arquivo que está lá (onConflict: "replace" o move para a lixeira, "rename" põe o seu ao lado), ou use outro caminho.',
    ],
  ),
  folder_conflict: entry(
    409,
    'typed',
    ['A file and a folder cannot have the same path.', 'Move or trash the file in the way (or the files inside the folder), or use another path.'],
    [
      'Um arquivo e uma pasta não podem ter o mesmo caminho.',
      'Mova ou mande para a lixeira o arquivo no caminho (ou os arquivos dentro da pasta), ou use outro caminho.',
    ],
  ),
  plan_already_applied: entry(
    409,
    'typed',
    ['This plan token was already applied; its writes were committed then.', 'Run the script with mode "plan" again for a new plan token.'],
    [
      'Este token de plano já foi aplicado; as escritas dele foram gravadas naquele momento.',
      'Execute o script com mode "plan" de novo para obter um novo token de plano.',
    ],
  ),
  upload_expired: entry(410, 'typed', ['The upload reservation has expired.', 'Begin a new upload.'], ['A reserva de envio expirou.', 'Comece um novo envio.']),
  restore_expired: entry(
    410,
    'typed',
    ['The file has been in the trash for more than 30 days and can no longer be restored.', 'Upload the file again.'],
    ['O arquivo está na lixeira há mais de 30 dias e não pode mais ser restaurado.', 'Envie o arquivo de novo.'],
  ),
  storage_failure: entry(500, 'typed', ['The storage backend failed.', 'Retry later.'], ['O armazenamento falhou.', 'Tente de novo mais tarde.']),
  database_failure: entry(500, 'typed', ['The database failed.', 'Retry later.'], ['O banco de dados falhou.', 'Tente de novo mais tarde.']),
  // ours (design.md section 4)
  unauthorized: entry(
    401,
    'resolution',
    ['Authentication is missing or invalid.', 'Send a valid Bearer token or sign in again.'],
    ['A autenticação está ausente ou é inválida.', 'Envie um token Bearer válido ou entre de novo.'],
  ),
  rate_limited: entry(
    429,
    'resolution',
    ['Too many requests.', 'Wait for the number of seconds in Retry-After, then retry.'],
    ['Requisições demais.', 'Espere os segundos indicados em Retry-After e tente de novo.'],
  ),
  payload_too_large: entry(
    413,
    'resolution',
    ['The request body is too large.', 'Send a smaller body.'],
    ['O corpo da requisição é grande demais.', 'Envie um corpo menor.'],
  ),
  unsupported_media_type: entry(
    415,
    'resolution',
    ['The Content-Type is not supported here.', 'Send the Content-Type this endpoint documents.'],
    ['O Content-Type não é aceito aqui.', 'Envie o Content-Type documentado para este endpoint.'],
  ),
  invalid_request: entry(
    400,
    'resolution',
    ['The request is malformed.', 'Fix the request as the resolution says.'],
    ['A requisição está malformada.', 'Corrija a requisição como indica a resolução.'],
  ),
  organization_limit_reached: entry(
    403,
    'resolution',
    ['You have created as many organizations as one person may.', "Use one of your organizations, or ask the service's operator to raise the limit."],
    ['Você já criou tantas organizações quanto uma pessoa pode criar.', 'Use uma das suas organizações, ou peça ao operador do serviço que aumente o limite.'],
  ),
  request_timeout: entry(
    408,
    'resolution',
    [
      'The request was not received in time.',
      "Send the headers at once and keep the body moving: a slow body is fine, a pause longer than the server's idle limit is not. Then send the request again.",
    ],
    [
      'A requisição não foi recebida a tempo.',
      'Envie os cabeçalhos de uma vez e mantenha o corpo em movimento: um corpo lento é aceito, uma pausa maior que o limite de inatividade do servidor não. Depois envie a requisição de novo.',
    ],
  ),
  method_not_allowed: entry(
    405,
    'resolution',
    ['This method is not allowed on this path.', 'Use a method this path documents.'],
    ['Este método não é permitido neste caminho.', 'Use um método documentado para este caminho.'],
  ),
  engine_busy: entry(
    503,
    'resolution',
    ['The script engine is busy.', 'Retry in a moment.'],
    ['O motor de scripts está ocupado.', 'Tente de novo em instantes.'],
  ),
  engine_quarantined: entry(
    429,
    'resolution',
    [
      'Scripts of this organization repeatedly crashed the sandbox and are refused for a while.',
      'Wait for the time given in Retry-After, then run a script that stays within its memory limit.',
    ],
    [
      'Scripts desta organização derrubaram a sandbox repetidamente e estão recusados por um tempo.',
      'Espere o tempo indicado em Retry-After e execute um script que respeite o limite de memória.',
    ],
  ),
  draining: entry(
    503,
    'resolution',
    ['This instance is shutting down and takes no new work.', 'Retry after the seconds in Retry-After; another instance will answer.'],
    ['Esta instância está desligando e não aceita trabalho novo.', 'Tente de novo após os segundos de Retry-After; outra instância responderá.'],
  ),
  internal_error: entry(
    500,
    'typed',
    ['Internal error.', 'Retry later; report the request id if it persists.'],
    ['Erro interno.', 'Tente de novo mais tarde; informe o id da requisição se persistir.'],
  ),
} satisfies Record<string, ErrorEntry>;

export type ErrorCode = keyof typeof ERROR_TABLE;

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_TABLE, code);
}

/** A text in every locale, e.g. a throw site's specific resolution. */
export type Localized = Record<Locale, string>;

/** A specific text in both languages: `l10n(english, portuguese)`. */
export function l10n(en: string, pt: string): Localized {
  return { 'en-US': en, 'pt-BR': pt };
}

/** The same pair, read at once in `locale`: for texts built where the caller's locale is already known. */
export function tr(locale: Locale, en: string, pt: string): string {
  return locale === 'pt-BR' ? pt : en;
}

export interface ServiceErrorOptions {
  /**
   * Overrides the table's generic message with one that says what is wrong: in both locales (`l10n(en, pt)`), or
   * one English string (then other locales keep the table's text).
   */
  message?: string | Localized;
  /**
   * A specific resolution, e.g. naming the failing field: in both locales (`l10n(en, pt)`), or one string that is
   * already in the request's locale (e.g. `tr(locale, en, pt)` or a localized validation message).
   */
  resolution?: string | Localized;
  /** Extra members merged into the body (e.g. `missingParts`). Never internals. */
  details?: Record<string, unknown>;
  /** Headers the response must carry (e.g. `Retry-After`, `WWW-Authenticate`). */
  headers?: Record<string, string>;
  cause?: unknown;
}

export class ServiceError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly shape: ErrorShape;
  /** The specific resolution in en-US (or the one string given); `resolutionFor(locale)` localizes it. */
  readonly resolution: string | undefined;
  readonly details: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;
  readonly customMessage: boolean;
  readonly #resolution: string | Localized | undefined;
  readonly #message: string | Localized | undefined;

  constructor(code: ErrorCode, options: ServiceErrorOptions = {}) {
    const row = ERROR_TABLE[code];
    super((typeof options.message === 'string' ? options.message : options.message?.['en-US']) ?? row.message['en-US'], { cause: options.cause });
    this.#message = options.message;
    this.name = 'ServiceError';
    this.code = code;
    this.status = row.status;
    this.shape = row.shape;
    this.#resolution = options.resolution;
    this.resolution = typeof options.resolution === 'string' ? options.resolution : options.resolution?.['en-US'];
    this.details = options.details;
    this.headers = options.headers;
    this.customMessage = options.message !== undefined;
  }

  /** The specific resolution in `locale`, if the throw site gave one. */
  resolutionFor(locale: Locale = 'en-US'): string | undefined {
    const r = this.#resolution;
    return typeof r === 'string' ? r : r?.[locale];
  }

  /** The JSON body in the code's shape; 5xx bodies carry the table's text only. */
  toBody(locale: Locale = 'en-US'): Record<string, unknown> {
    const row = ERROR_TABLE[this.code];
    const internal = this.status >= 500;
    const own = this.#message;
    const specific = typeof own === 'string' ? (locale === 'en-US' ? own : undefined) : own?.[locale];
    const message = (!internal && specific) || row.message[locale];
    const resolution = (!internal && this.resolutionFor(locale)) || row.resolution[locale];
    const extra = internal ? {} : (this.details ?? {});
    if (this.shape === 'typed') return { code: this.code, message, ...extra };
    return { error: { code: this.code, message, resolution, ...extra } };
  }
}

/**
 * A 409 `conflict` with its own reason: the typed shape has no resolution member, so the message states the reason
 * and the fix (a bare "conflicts with the current state" tells the caller nothing); scripts also get the fix alone.
 */
export function conflict(reason: Localized, fix: Localized, options: Omit<ServiceErrorOptions, 'message' | 'resolution'> = {}): ServiceError {
  const both = (locale: Locale) => `${reason[locale]} ${fix[locale]}`;
  return new ServiceError('conflict', { ...options, message: l10n(both('en-US'), both('pt-BR')), resolution: fix });
}

export function errorStatus(code: ErrorCode): number {
  return ERROR_TABLE[code].status;
}
