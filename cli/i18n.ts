// The CLI's own words in en-US and pt-BR (server errors arrive already localized through x-service-locale).
// One table: a key is looked up in the chosen language, `{name}` placeholders filled from `vars`.
export type Lang = 'en-US' | 'pt-BR';

const MESSAGES = {
  error: ['error', 'erro'],
  resolution: ['resolution', 'solução'],
  usage: ['usage', 'uso'],
  unknownCommand: ['unknown command "{name}"; run siglata --help', 'comando desconhecido "{name}"; execute siglata --help'],
  unknownCommandGuess: [
    'unknown command "{name}"; did you mean "{guess}"? (siglata --help lists them all)',
    'comando desconhecido "{name}"; você quis dizer "{guess}"? (siglata --help lista todos)',
  ],
  unknownOption: ['unknown option {option}', 'opção desconhecida {option}'],
  didYouMean: ['did you mean {word}?', 'você quis dizer {word}?'],
  optionOfOthers: ['{option} is an option of: {commands}', '{option} é uma opção de: {commands}'],
  unknownAction: ['{command}: unknown action "{action}"', '{command}: ação desconhecida "{action}"'],
  badOption: ['{detail}; run siglata {command} --help', '{detail}; execute siglata {command} --help'],
  missingArgument: ['missing {what}; run siglata {command} --help', 'falta {what}; execute siglata {command} --help'],
  notSignedIn: ['not signed in to {server}', 'sem sessão em {server}'],
  notSignedInHelp: [
    'Run `siglata login --server {server}`, or pass --token / SIGLATA_TOKEN.',
    'Execute `siglata login --server {server}`, ou passe --token / SIGLATA_TOKEN.',
  ],
  noServer: ['no server chosen', 'nenhum servidor escolhido'],
  noServerHelp: [
    'Pass --server URL (or set SIGLATA_SERVER), or sign in once with `siglata login --server URL`.',
    'Passe --server URL (ou defina SIGLATA_SERVER), ou entre uma vez com `siglata login --server URL`.',
  ],
  sessionEnded: ['the stored sign-in is no longer valid', 'o acesso salvo não é mais válido'],
  sessionEndedHelp: ['Sign in again with `siglata login`.', 'Entre de novo com `siglata login`.'],
  accessRevoked: ['the access of this sign-in to {server} was revoked ({why})', 'o acesso deste login a {server} foi revogado ({why})'],
  accessRevokedHelp: [
    'An owner or admin of the organization revoked it (Agents and access in the console). Once they allow it again, sign in with `siglata login`; or ask them for an API key.',
    'Um proprietário ou administrador da organização o revogou (Agentes e acesso, no console). Quando permitirem de novo, entre com `siglata login`; ou peça a eles uma chave de API.',
  ],
  network: ['cannot reach {server}: {detail}', 'não foi possível acessar {server}: {detail}'],
  networkHelp: ['Check the address and your connection, then run the command again.', 'Confira o endereço e a conexão, e execute o comando de novo.'],
  badResponse: ['unexpected answer from the server (HTTP {status})', 'resposta inesperada do servidor (HTTP {status})'],
  resultCut: ['the server sent only a preview of the result ({bytes} bytes)', 'o servidor enviou só uma prévia do resultado ({bytes} bytes)'],
  resultCutHelp: [
    'Return less from the script (filter, aggregate or page), or update the server: it sends results up to its result limit whole.',
    'Devolva menos no script (filtre, agregue ou pagine), ou atualize o servidor: ele envia resultados inteiros até o limite.',
  ],
  badResponseHelp: ['Check that --server points at a Siglata service.', 'Confira se --server aponta para um serviço Siglata.'],
  openUrl: [
    'Open this address in a browser to sign in and choose an organization:',
    'Abra este endereço em um navegador para entrar e escolher uma organização:',
  ],
  waiting: ['Waiting for the browser to come back to {redirect} …', 'Aguardando o navegador voltar para {redirect} …'],
  loginTimeout: ['sign-in was not completed within {minutes} minutes', 'o acesso não foi concluído em {minutes} minutos'],
  loginTimeoutHelp: ['Run `siglata login` again and finish in the browser.', 'Execute `siglata login` de novo e conclua no navegador.'],
  loginDenied: ['the authorization server answered {error}', 'o servidor de autorização respondeu {error}'],
  loginDeniedHelp: [
    'Approve the request in the browser, or check that your organization allows MCP access.',
    'Aprove o pedido no navegador, ou verifique se a organização permite acesso MCP.',
  ],
  loginStateMismatch: ["the browser came back with another sign-in attempt's answer", 'o navegador voltou com a resposta de outra tentativa de acesso'],
  signedIn: [
    'Signed in to {server} as {user} (organization {organization}, scopes: {scopes}).',
    'Acesso feito em {server} como {user} (organização {organization}, escopos: {scopes}).',
  ],
  callbackDone: ['Signed in. You can close this window and return to the terminal.', 'Acesso concluído. Pode fechar esta janela e voltar ao terminal.'],
  callbackFailed: ['Sign-in failed: {error}. Return to the terminal.', 'O acesso falhou: {error}. Volte ao terminal.'],
  loggedOut: ['Signed out of {server}; its tokens are revoked.', 'Sessão encerrada em {server}; os tokens foram revogados.'],
  loggedOutUnrevoked: [
    'Forgot the sign-in for {server}, but could not revoke its tokens there; they stay valid until they expire.',
    'O acesso a {server} foi esquecido, mas os tokens não puderam ser revogados lá; valem até expirar.',
  ],
  notLoggedIn: ['No stored sign-in for {server}.', 'Nenhum acesso salvo para {server}.'],
  scriptFailed: ['the script failed', 'o script falhou'],
  planHeader: ['{count} planned write(s), nothing changed yet:', '{count} escrita(s) planejada(s), nada alterado ainda:'],
  planApplyHint: ['Apply exactly this plan within 15 minutes with:', 'Aplique exatamente este plano em até 15 minutos com:'],
  applied: ['Applied {count} write(s) in one transaction.', '{count} escrita(s) aplicada(s) em uma transação.'],
  notApplied: ['Nothing was applied.', 'Nada foi aplicado.'],
  uploadResuming: ['Resuming {uploadId}: {have} of {total} part(s) already stored.', 'Retomando {uploadId}: {have} de {total} parte(s) já armazenada(s).'],
  uploadStarting: ['Uploading {name} ({size}) as {uploadId}, {total} part(s).', 'Enviando {name} ({size}) como {uploadId}, {total} parte(s).'],
  partStored: ['part {part}/{total} stored ({done} of {size})', 'parte {part}/{total} armazenada ({done} de {size})'],
  uploadDone: ['Uploaded {name} as {fileId} ({size}).', '{name} enviado como {fileId} ({size}).'],
  interrupted: ['Interrupted. Run the same command again to resume.', 'Interrompido. Execute o mesmo comando de novo para retomar.'],
  fileChanged: ['{path} changed since the interrupted upload began; starting over', '{path} mudou desde o início do envio interrompido; recomeçando'],
  reservationGone: [
    'the interrupted upload {uploadId} can no longer be resumed ({code}); starting over',
    'o envio interrompido {uploadId} não pode mais ser retomado ({code}); recomeçando',
  ],
  downloadResuming: ['Resuming download at {done} of {size}.', 'Retomando o download em {done} de {size}.'],
  downloadRestart: [
    'The file changed on the server since the interrupted download; starting over.',
    'O arquivo mudou no servidor desde o download interrompido; recomeçando.',
  ],
  downloadDone: ['Saved {fileId} to {path} ({size}, sha256 {sha256}).', '{fileId} salvo em {path} ({size}, sha256 {sha256}).'],
  digestMismatch: ["the downloaded bytes do not match the file's SHA-256", 'os bytes baixados não conferem com o SHA-256 do arquivo'],
  digestMismatchHelp: ['Delete {path} and download again.', 'Apague {path} e baixe de novo.'],
  sizeMismatch: ['the download ended at {got} bytes, {want} were announced', 'o download terminou com {got} bytes, eram esperados {want}'],
  noFiles: ['No files.', 'Nenhum arquivo.'],
  unknownOutcome: ["the server's answer did not report this file", 'a resposta do servidor não informou sobre este arquivo'],
  lsMore: [
    '{shown} shown; {remaining} more not listed (raise --limit, or leave it out to list all)',
    '{shown} mostrado(s); mais {remaining} não listado(s) (aumente --limit, ou omita-o para listar todos)',
  ],
  noResults: ['No results.', 'Nenhum resultado.'],
  waitingRateLimit: ['Rate limited; retrying in {seconds} s.', 'Limite de requisições; nova tentativa em {seconds} s.'],
  fileNotReadable: ['cannot read {path}: {detail}', 'não foi possível ler {path}: {detail}'],
  fileNotReadableHelp: ['Check the path and its permissions.', 'Confira o caminho e as permissões.'],
  orgCreated: [
    'Created organization {slug} ({id}); you are its owner. To work in it: siglata org switch',
    'Organização {slug} ({id}) criada; você é o proprietário. Para trabalhar nela: siglata org switch',
  ],
  orgSlugNeeded: [
    'org create: the name gives no usable slug; pass --slug (2-48 lower-case letters, digits, inner hyphens)',
    'org create: o nome não gera um slug válido; passe --slug (2 a 48 letras minúsculas, dígitos, hífens internos)',
  ],
  orgFixedToken: [
    '--token / SIGLATA_TOKEN fixes the credential of this command, so it cannot sign in again',
    '--token / SIGLATA_TOKEN fixa a credencial deste comando, então ele não pode entrar de novo',
  ],
  orgFixedTokenHelp: [
    "Run it without --token and with SIGLATA_TOKEN unset; to use another organization with a key, pass that organization's key.",
    'Execute sem --token e com SIGLATA_TOKEN vazio; para usar outra organização com uma chave, passe a chave dessa organização.',
  ],
  orgKeyBound: [
    'the stored credential is an organization API key: it belongs to its organization and cannot switch or create one',
    'a credencial salva é uma chave de API: ela pertence à organização dela e não pode trocar nem criar organizações',
  ],
  orgKeyBoundHelp: [
    'Sign in as yourself with `siglata login` (browser), or store a key made in the other organization with `siglata login --token slk_…`.',
    'Entre como você mesmo com `siglata login` (navegador), ou salve uma chave criada na outra organização com `siglata login --token slk_…`.',
  ],
  orgCreateInBrowser: [
    'Create the organization with the form on the page that opens, then allow it.',
    'Crie a organização no formulário da página que vai abrir e selecione-a.',
  ],
  orgPickInBrowser: ['Pick the organization on the page that opens.', 'Escolha a organização na página que vai abrir.'],
  invitationAccepted: [
    'Accepted {id}; to work in that organization: siglata org switch',
    'Convite {id} aceito; para trabalhar nessa organização: siglata org switch',
  ],
  invitationDeclined: ['Declined {id}.', 'Convite {id} recusado.'],
  // Resolutions for the spec's typed errors, whose bodies carry only code and message.
  fix_not_found: [
    'Check the id (`siglata ls`, `siglata ls --trashed`); ids of another organization are not found either.',
    'Confira o id (`siglata ls`, `siglata ls --trashed`); ids de outra organização também não são encontrados.',
  ],
  fix_conflict: [
    'The state changed meanwhile: look at it again (for --apply, make a new plan with --plan) and retry.',
    'O estado mudou nesse meio-tempo: confira de novo (para --apply, faça um novo plano com --plan) e tente outra vez.',
  ],
  fix_plan_already_applied: [
    'Its writes are already in; to change more, make a new plan with --plan.',
    'As escritas dele já estão gravadas; para mudar mais, faça um novo plano com --plan.',
  ],
  fix_quota_exceeded: [
    'Free space: empty the trash (`siglata rm`) or delete files, then try again.',
    'Libere espaço: esvazie a lixeira (`siglata rm`) ou apague arquivos, e tente de novo.',
  ],
  fix_upload_expired: ['The reservation lapsed; run the upload again to start a new one.', 'A reserva expirou; execute o envio de novo para começar outra.'],
  fix_restore_expired: [
    'The 30-day trash window is over; the file cannot be restored.',
    'O prazo de 30 dias da lixeira acabou; o arquivo não pode ser restaurado.',
  ],
  fix_upload_incomplete: [
    'Run the upload again: it sends the missing parts and completes.',
    'Execute o envio de novo: ele manda as partes que faltam e conclui.',
  ],
  fix_part_mismatch: ['The file changed while it was being sent; run the upload again.', 'O arquivo mudou durante o envio; execute o envio de novo.'],
  fix_INVITATION_NOT_FOUND: [
    'Check the invitation id; it may have been cancelled or answered.',
    'Confira o id do convite; ele pode ter sido cancelado ou respondido.',
  ],
  fix_storage_failure: ['A server-side storage error; try again in a moment.', 'Erro de armazenamento no servidor; tente de novo em instantes.'],
  fix_database_failure: ['A server-side database error; try again in a moment.', 'Erro de banco de dados no servidor; tente de novo em instantes.'],
  fix_internal_error: [
    'A server-side error; try again, and report it with the request id if it persists.',
    'Erro no servidor; tente de novo e informe o id da requisição se persistir.',
  ],
} as const satisfies Record<string, readonly [string, string]>;

export type MessageKey = keyof typeof MESSAGES;

let current: Lang = 'en-US';

export function setLang(lang: Lang): void {
  current = lang;
}
export function lang(): Lang {
  return current;
}

/** `pt-BR`, `pt_BR.UTF-8`, `pt` → pt-BR; anything else → en-US. */
export function parseLang(value: string | undefined): Lang | null {
  if (!value) return null;
  return /^pt([-_]|$)/i.test(value) ? 'pt-BR' : /^en([-_]|$)/i.test(value) ? 'en-US' : null;
}

/** The CLI's own resolution for an error code the server sent without one. */
export function fallbackResolution(code: string): string | undefined {
  const key = `fix_${code}`;
  return key in MESSAGES ? t(key as MessageKey) : undefined;
}

export function t(key: MessageKey, vars: Record<string, string | number> = {}): string {
  const text: string = MESSAGES[key][current === 'pt-BR' ? 1 : 0];
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}
