// The console's texts, one table per page (and the frame around them, the page titles and the forms' notices), both
// languages side by side. Pages escape them as they show them; names, e-mails and sizes are interpolated as given.
// Role names are the runtime API's.
import { l10n, type Localized } from '../../../runtime-api/index.ts';

export const FRAME = {
  nav: {
    home: l10n('Home', 'Início'),
    members: l10n('Members', 'Membros'),
    files: l10n('Files', 'Arquivos'),
    activity: l10n('Activity', 'Atividade'),
    agents: l10n('Agents and access', 'Agentes e acesso'),
  },
  skip: l10n('Skip to content', 'Pular para o conteúdo'),
  console: l10n('Console', 'Console'),
  signOut: l10n('Sign out', 'Sair'),
  /** Pages of an organization, for a session that has none active. */
  chooseOrganization: l10n('Choose or create an organization first.', 'Escolha ou crie uma organização antes.'),
  goHome: l10n('Go to the console home', 'Ir para o início do console'),
};

/** What the console calls a form's fields, so a refusal names the field as the page labels it (never `email`). */
export const FIELD_LABELS: Record<string, Localized> = {
  name: l10n('Name', 'Nome'),
  slug: l10n('Slug', 'Identificador'),
  email: l10n('E-mail', 'E-mail'),
  role: l10n('Role', 'Papel'),
  state: l10n('Access state', 'Estado do acesso'),
  scopes: l10n('Scopes', 'Escopos'),
  maxScopes: l10n('Scopes', 'Escopos'),
  expiresInDays: l10n('Expires in (days)', 'Expira em (dias)'),
  newName: l10n('New name', 'Novo nome'),
  path: l10n('Folder', 'Pasta'),
  folder: l10n('Folder name', 'Nome da pasta'),
  mediaType: l10n('Type', 'Tipo'),
};

/** Each page's title; its route's OpenAPI summary reads the English one. */
export const PAGE_TITLES = {
  home: l10n('Your workspace', 'Seu espaço de trabalho'),
  members: l10n('Members and invitations', 'Membros e convites'),
  files: l10n('Files', 'Arquivos'),
  file: l10n('File details', 'Detalhes do arquivo'),
  trash: l10n('Trash', 'Lixeira'),
  activity: l10n('Activity', 'Atividade'),
  agents: l10n('Agents and access', 'Agentes e acesso'),
};

/** What a form's page says once its action is done, one per action. */
export const NOTICES = {
  organizationCreated: l10n('Organization created.', 'Organização criada.'),
  organizationSwitched: l10n('Active organization changed.', 'Organização ativa alterada.'),
  invitationAccepted: l10n('You joined the organization.', 'Você entrou na organização.'),
  invitationDeclined: l10n('You declined the invitation.', 'Você recusou o convite.'),
  invitationSent: l10n('Invitation sent.', 'Convite enviado.'),
  invitationCancelled: l10n('Invitation cancelled.', 'Convite cancelado.'),
  invitationResent: l10n('Invitation sent again: the new link is valid for 48 hours.', 'Convite enviado de novo: o novo link vale por 48 horas.'),
  roleChanged: l10n('Role changed.', 'Papel alterado.'),
  memberRemoved: l10n('Member removed.', 'Membro removido.'),
  fileRestored: l10n('File restored.', 'Arquivo restaurado.'),
  grantRevoked: l10n('Access revoked.', 'Acesso revogado.'),
  mcpAccessSaved: l10n('MCP access saved.', 'Acesso MCP salvo.'),
  apiKeyCreated: l10n('API key created.', 'Chave de API criada.'),
  apiKeyRevoked: l10n('API key revoked.', 'Chave de API revogada.'),
};

export const HOME = {
  you: l10n('You', 'Você'),
  signedInAs: l10n('Signed in as', 'Conectado como'),
  yourOrganizations: l10n('Your organizations', 'Suas organizações'),
  activeExplained: l10n(
    'The active organization is the one the console and your browser calls act on.',
    'A organização ativa é aquela em que o console e as chamadas do seu navegador atuam.',
  ),
  name: l10n('Name', 'Nome'),
  slug: l10n('Slug', 'Identificador'),
  yourRole: l10n('Your role', 'Seu papel'),
  status: l10n('Status', 'Situação'),
  active: l10n('Active', 'Ativa'),
  makeActive: l10n('Make active', 'Tornar ativa'),
  makeActiveLabel: (organization: string) => l10n(`Make ${organization} active`, `Tornar ${organization} ativa`),
  noOrganization: l10n(
    'You do not belong to any organization yet. Create one below, or accept an invitation.',
    'Você ainda não faz parte de nenhuma organização. Crie uma abaixo ou aceite um convite.',
  ),
  invitationsForYou: l10n('Invitations for you', 'Convites para você'),
  /** Before the expiry time. */
  expires: l10n('expires', 'expira em'),
  accept: l10n('Accept', 'Aceitar'),
  acceptLabel: (organization: string) => l10n(`Accept the invitation to ${organization}`, `Aceitar o convite para ${organization}`),
  decline: l10n('Decline', 'Recusar'),
  declineLabel: (organization: string) => l10n(`Decline the invitation to ${organization}`, `Recusar o convite para ${organization}`),
  noInvitation: l10n('No invitation is waiting for you.', 'Nenhum convite está esperando por você.'),
  createOrganization: l10n('Create an organization', 'Criar uma organização'),
  slugField: l10n('Slug (lower-case letters, digits, hyphens)', 'Identificador (letras minúsculas, dígitos, hifens)'),
  create: l10n('Create', 'Criar'),
  becomeOwner: l10n('You become its owner, and it becomes your active organization.', 'Você se torna proprietário, e ela se torna sua organização ativa.'),
};

export const MEMBERS = {
  members: l10n('Members', 'Membros'),
  member: l10n('Member', 'Membro'),
  role: l10n('Role', 'Papel'),
  manage: l10n('Manage', 'Gerenciar'),
  /** After the viewer's own name. */
  you: l10n('you', 'você'),
  lastOwner: l10n(
    'The last owner cannot be removed or demoted: make another member owner first.',
    'O último proprietário não pode ser removido nem rebaixado: torne outro membro proprietário antes.',
  ),
  ownerOnly: l10n('Only an owner can change or remove an owner.', 'Somente um proprietário pode alterar ou remover um proprietário.'),
  roleOf: (email: string) => l10n(`Role of ${email}`, `Papel de ${email}`),
  changeRole: l10n('Change role', 'Mudar papel'),
  remove: l10n('Remove', 'Remover'),
  removeLabel: (email: string) => l10n(`Remove ${email}`, `Remover ${email}`),
  removeConfirm: (email: string) => l10n(`Remove ${email} from the organization?`, `Remover ${email} da organização?`),
  adminsManage: l10n('Only owners and admins manage members.', 'Somente proprietários e administradores gerenciam membros.'),
  inviteSomeone: l10n('Invite someone', 'Convidar alguém'),
  email: l10n('E-mail', 'E-mail'),
  sendInvitation: l10n('Send invitation', 'Enviar convite'),
  invitationMailed: l10n('The invitation is e-mailed and expires after 48 hours.', 'O convite é enviado por e-mail e expira em 48 horas.'),
  pendingInvitations: l10n('Pending invitations', 'Convites pendentes'),
  expires: l10n('Expires', 'Expira'),
  cancel: l10n('Cancel', 'Cancelar'),
  cancelLabel: (email: string) => l10n(`Cancel the invitation of ${email}`, `Cancelar o convite de ${email}`),
  resend: l10n('Send again', 'Enviar de novo'),
  alreadyInvited: (email: string) =>
    l10n(
      `${email} already has a pending invitation. Send it again (a new link, valid 48 hours), or cancel it under Pending invitations.`,
      `${email} já tem um convite pendente. Envie de novo (um novo link, válido por 48 horas), ou cancele-o em Convites pendentes.`,
    ),
  resendLabel: (email: string) => l10n(`Send the invitation to ${email} again`, `Enviar o convite para ${email} de novo`),
  noPending: l10n('No pending invitation.', 'Nenhum convite pendente.'),
};

export const FILES = {
  storage: l10n('Storage', 'Armazenamento'),
  /** Sizes and percentage already formatted for the locale. */
  used: (used: string, quota: string, percent: string) => l10n(`${used} of ${quota} used (${percent}%).`, `${used} de ${quota} usados (${percent}%).`),
  allCount: l10n('Active files, files in the trash and open uploads all count.', 'Arquivos ativos, arquivos na lixeira e envios em andamento contam.'),
  recentExecutions: l10n('Recent executions', 'Execuções recentes'),
  logAdminsOnly: l10n('Only owners and admins can read the execution log.', 'Somente proprietários e administradores podem ler o registro de execuções.'),
  when: l10n('When', 'Quando'),
  who: l10n('Who', 'Quem'),
  via: l10n('Via', 'Via'),
  outcome: l10n('Outcome', 'Resultado'),
  duration: l10n('Duration', 'Duração'),
  succeeded: l10n('succeeded', 'concluída'),
  failed: l10n('failed', 'falhou'),
  noRuns: l10n('No script has run in this organization yet.', 'Nenhum script foi executado nesta organização ainda.'),
  trash: l10n('Trash', 'Lixeira'),
  retention: (days: number) =>
    l10n(
      `Files stay restorable for ${days} days, then they are deleted for good.`,
      `Os arquivos podem ser restaurados por ${days} dias; depois são apagados de vez.`,
    ),
  file: l10n('File', 'Arquivo'),
  size: l10n('Size', 'Tamanho'),
  trashed: l10n('Trashed', 'Na lixeira desde'),
  restorableUntil: l10n('Restorable until', 'Restaurável até'),
  restore: l10n('Restore', 'Restaurar'),
  restoreLabel: (name: string) => l10n(`Restore ${name}`, `Restaurar ${name}`),
  trashEmpty: l10n('The trash is empty.', 'A lixeira está vazia.'),
  nextPage: l10n('Next page', 'Próxima página'),
  firstPage: l10n('First page', 'Primeira página'),
  pages: l10n('Pages', 'Páginas'),
};

export const AGENTS = {
  adminsOnly: l10n('Only owners and admins manage what agents may do.', 'Somente proprietários e administradores gerenciam o que os agentes podem fazer.'),
  mcpAccess: l10n('MCP access', 'Acesso MCP'),
  /** Before the state. */
  mcpAccessIs: l10n('MCP access is', 'O acesso MCP está'),
  mcpStates: {
    testing: l10n('testing', 'em teste'),
    active: l10n('active', 'ativo'),
    revoked: l10n('revoked', 'revogado'),
  } as Record<string, Localized>,
  accessState: l10n('Access state', 'Estado do acesso'),
  maxScopes: l10n('Most an agent may ever do here (maxScopes)', 'O máximo que um agente pode fazer aqui (maxScopes)'),
  saveAccess: l10n('Save access', 'Salvar acesso'),
  /** What each state does, beside its choice. */
  stateMeans: {
    testing: l10n(
      'Agents and API keys work, within the scopes below. Every organization starts here; it works as active and only says that nobody has decided yet.',
      'Agentes e chaves de API funcionam, dentro dos escopos abaixo. Toda organização começa aqui; funciona como ativo e só indica que ninguém decidiu ainda.',
    ),
    active: l10n('Agents and API keys work, within the scopes below.', 'Agentes e chaves de API funcionam, dentro dos escopos abaixo.'),
    revoked: l10n(
      'Every agent token and API key of this organization is refused at its next call.',
      'Todo token de agente e chave de API desta organização é recusado na próxima chamada.',
    ),
  } as Record<string, Localized>,
  maxScopesExplained: l10n(
    'Tokens and keys never get more than what is checked here, whatever they ask for. Agents ask for what they need; an unchecked scope cannot be granted.',
    'Tokens e chaves nunca recebem mais do que o marcado aqui, peçam o que pedirem. Agentes pedem o que precisam; um escopo desmarcado não pode ser concedido.',
  ),
  noScopesNow: l10n(
    'No scope is allowed: every agent call and every API key is refused, as if access were revoked.',
    'Nenhum escopo está permitido: toda chamada de agente e toda chave de API é recusada, como se o acesso estivesse revogado.',
  ),
  confirmNoScopes: l10n(
    'With no scope allowed, every agent call and every API key is refused. Save anyway?',
    'Sem nenhum escopo permitido, toda chamada de agente e toda chave de API é recusada. Salvar mesmo assim?',
  ),
  allowNone: l10n('Yes, allow no scope at all', 'Sim, não permitir nenhum escopo'),
  historyOnActivity: l10n('Every change is recorded.', 'Toda mudança fica registrada.'),
  seeHistory: l10n('See the history on the Activity page', 'Veja o histórico na página Atividade'),
  noMcpControl: l10n('This server does not offer MCP access control yet.', 'Este servidor ainda não oferece controle de acesso MCP.'),
  appsHoldingTokens: l10n('Apps holding tokens', 'Aplicativos com tokens'),
  app: l10n('App', 'Aplicativo'),
  allowedBy: l10n('Allowed by', 'Autorizado por'),
  scopes: l10n('Scopes', 'Escopos'),
  since: l10n('Since', 'Desde'),
  lastUse: l10n('Last use', 'Último uso'),
  never: l10n('never', 'nunca'),
  revoke: l10n('Revoke', 'Revogar'),
  revokeGrantLabel: (app: string, email: string) => l10n(`Revoke ${app} (${email})`, `Revogar ${app} (${email})`),
  revokeGrantConfirm: (app: string, email: string) =>
    l10n(
      `Revoke ${app}, allowed by ${email}? Its tokens stop working at once; it will have to ask for consent again.`,
      `Revogar ${app}, autorizado por ${email}? Os tokens dele param de funcionar na hora; ele terá de pedir consentimento de novo.`,
    ),
  noApps: l10n('No app holds tokens for this organization.', 'Nenhum aplicativo tem tokens para esta organização.'),
  apiKeys: l10n('API keys', 'Chaves de API'),
  noApiKeys: l10n('This server does not offer API keys yet.', 'Este servidor ainda não oferece chaves de API.'),
  keyCreated: (name: string) =>
    l10n(`API key “${name}” created. Copy it now: it will not be shown again.`, `Chave de API “${name}” criada. Copie agora: ela não será mostrada de novo.`),
  key: l10n('Key', 'Chave'),
  name: l10n('Name', 'Nome'),
  state: l10n('State', 'Estado'),
  keyStates: {
    active: l10n('active', 'ativa'),
    expired: l10n('expired', 'expirada'),
    revoked: l10n('revoked', 'revogada'),
  } as Record<string, Localized>,
  expires: l10n('Expires', 'Expira'),
  revokeKeyLabel: (name: string) => l10n(`Revoke the key ${name}`, `Revogar a chave ${name}`),
  revokeKeyConfirm: (name: string) =>
    l10n(
      `Revoke the API key “${name}”? Whatever uses it is refused from its next call; this cannot be undone.`,
      `Revogar a chave de API “${name}”? O que a usa é recusado a partir da próxima chamada; isto não pode ser desfeito.`,
    ),
  noKeys: l10n('No API key yet.', 'Nenhuma chave de API ainda.'),
  createKey: l10n('Create an API key', 'Criar uma chave de API'),
  expiresInDays: l10n('Expires in (days)', 'Expira em (dias)'),
  createKeyButton: l10n('Create key', 'Criar chave'),
};

export const ACTIVITY = {
  adminsOnly: l10n(
    "Only owners and admins can read the organization's activity.",
    'Somente proprietários e administradores podem ler a atividade da organização.',
  ),
  executions: l10n('Script executions', 'Execuções de scripts'),
  filters: l10n('Filters', 'Filtros'),
  person: l10n('Person', 'Pessoa'),
  key: l10n('API key', 'Chave de API'),
  app: l10n('App', 'Aplicativo'),
  outcome: l10n('Outcome', 'Resultado'),
  source: l10n('From', 'Origem'),
  fromDate: l10n('From (date)', 'De (data)'),
  toDate: l10n('To (date, inclusive)', 'Até (data, inclusive)'),
  anyone: l10n('Anyone', 'Qualquer pessoa'),
  anyKey: l10n('Any key or none', 'Qualquer chave ou nenhuma'),
  anyApp: l10n('Any app or none', 'Qualquer aplicativo ou nenhum'),
  anyOutcome: l10n('Any outcome', 'Qualquer resultado'),
  anySource: l10n('Anywhere', 'Qualquer origem'),
  apply: l10n('Show', 'Mostrar'),
  clear: l10n('Clear filters', 'Limpar filtros'),
  exportCsv: l10n('Export as CSV', 'Exportar como CSV'),
  when: l10n('When', 'Quando'),
  who: l10n('Who', 'Quem'),
  script: l10n('Script', 'Script'),
  duration: l10n('Duration', 'Duração'),
  succeeded: l10n('succeeded', 'concluída'),
  failed: l10n('failed', 'falhou'),
  sources: { mcp: l10n('MCP', 'MCP'), rest: l10n('REST', 'REST'), cli: l10n('CLI', 'CLI') } as Record<string, Localized>,
  modes: { run: l10n('run', 'execução'), plan: l10n('plan', 'plano'), apply: l10n('apply', 'aplicação') } as Record<string, Localized>,
  callerKinds: { person: l10n('person', 'pessoa'), key: l10n('API key', 'chave de API'), app: l10n('app', 'aplicativo') } as Record<string, Localized>,
  /** Under a key's or an app's name: the person it acted for. */
  actingFor: (email: string) => l10n(`for ${email}`, `por ${email}`),
  moreLines: (n: number) => l10n(`… and ${n} more line${n === 1 ? '' : 's'}`, `… e mais ${n} linha${n === 1 ? '' : 's'}`),
  notRecorded: l10n('(not recorded: run before excerpts were kept)', '(não registrado: execução anterior aos trechos)'),
  atLine: (n: number) => l10n(`at line ${n}`, `na linha ${n}`),
  noRuns: l10n('No script has run in this organization yet.', 'Nenhum script foi executado nesta organização ainda.'),
  noMatch: l10n('No execution matches these filters.', 'Nenhuma execução corresponde a estes filtros.'),
  older: l10n('Older executions', 'Execuções mais antigas'),
  newest: l10n('Back to the newest', 'Voltar às mais recentes'),
  excerptNote: l10n(
    'The first three lines of each script are kept (API keys and tokens masked); the whole script never is.',
    'As três primeiras linhas de cada script são guardadas (chaves de API e tokens mascarados); o script inteiro nunca.',
  ),
  timesNote: l10n('Dates in the filters are days in your time zone.', 'As datas dos filtros são dias no seu fuso horário.'),
  badDate: l10n('Dates are written YYYY-MM-DD; this filter was ignored.', 'Datas são escritas AAAA-MM-DD; este filtro foi ignorado.'),
  mcpChanges: l10n('Changes of MCP access', 'Mudanças no acesso MCP'),
  state: l10n('State', 'Estado'),
  maxScopes: l10n('maxScopes', 'maxScopes'),
  unchanged: l10n('unchanged', 'sem mudança'),
  none: l10n('none', 'nenhum'),
  noChanges: l10n(
    'MCP access was never changed: it is in its initial state (testing).',
    'O acesso MCP nunca foi alterado: ele está no estado inicial (em teste).',
  ),
  olderChanges: l10n('Older changes', 'Mudanças mais antigas'),
  newestChanges: l10n('Back to the latest changes', 'Voltar às mudanças mais recentes'),
};
