// The texts of the pages outside the console (sign-in, magic-link landing, invitation, OAuth authorization), one
// table per page, both languages side by side. Pages escape them as they show them; names and e-mails are
// interpolated as given.
import { ROLE_NAMES, l10n, type Localized, type Role } from '../../runtime-api/index.ts';

export const SIGN_IN = {
  title: l10n('Sign in to Siglata', 'Entrar na Siglata'),
  email: l10n('E-mail address', 'Endereço de e-mail'),
  send: l10n('Send me a sign-in link', 'Enviar link de acesso'),
  needsScript: l10n('This page needs JavaScript.', 'Esta página precisa de JavaScript.'),
  sent: l10n('Check your e-mail: we sent you a sign-in link.', 'Confira seu e-mail: enviamos um link de acesso.'),
  /** Followed by the server's resolution (or the status). */
  sendFailed: l10n('Could not send the link: ', 'Não foi possível enviar o link: '),
};

export const MAGIC_LINK = {
  title: l10n('Sign in to Siglata', 'Entrar na Siglata'),
  pressButton: l10n('Press the button to finish signing in on this device.', 'Aperte o botão para concluir o acesso neste dispositivo.'),
  continue: l10n('Continue', 'Continuar'),
  singleUse: l10n('The link works once and expires 10 minutes after it was sent.', 'O link funciona uma única vez e expira 10 minutos após o envio.'),
  incompleteTitle: l10n('Incomplete sign-in link', 'Link de acesso incompleto'),
  incomplete: l10n('Open the whole link from the e-mail, or ask for a new one.', 'Abra o link completo do e-mail, ou peça um novo.'),
  signIn: l10n('Sign in', 'Entrar'),
  unusableTitle: l10n('This sign-in link cannot be used', 'Este link de acesso não pode ser usado'),
  unusable: l10n('It is invalid, expired or already used. Ask for a new one.', 'Ele é inválido, expirou ou já foi usado. Peça um novo.'),
  newLink: l10n('Get a new link', 'Receber um novo link'),
};

export const INVITATION = {
  title: (orgName: string) => l10n(`Join ${orgName}`, `Participar de ${orgName}`),
  invited: (orgName: string, role: Role) =>
    l10n(
      `You are invited to join ${orgName} as ${ROLE_NAMES[role]['en-US']}.`,
      `Você foi convidado para participar de ${orgName} como ${ROLE_NAMES[role]['pt-BR']}.`,
    ),
  signInAs: (email: string) => l10n(`Sign in as ${email} to answer.`, `Entre como ${email} para responder.`),
  accept: l10n('Accept', 'Aceitar'),
  decline: l10n('Decline', 'Recusar'),
  joined: l10n('You joined the organization.', 'Você entrou na organização.'),
  declined: l10n('You declined the invitation.', 'Você recusou o convite.'),
  unavailableTitle: l10n('Invitation not available', 'Convite indisponível'),
  unavailable: l10n(
    'The invitation is unknown, cancelled, expired or already answered. Ask for a new one.',
    'O convite é desconhecido, foi cancelado, expirou ou já foi respondido. Peça um novo.',
  ),
};

export const OAUTH = {
  /** What each scope lets the application do, as the consent page lists it. */
  scopes: {
    'files:read': l10n("List, read and download the organization's files", 'Listar, ler e baixar os arquivos da organização'),
    'files:write': l10n('Upload, change, trash and delete files', 'Enviar, alterar, mover para a lixeira e excluir arquivos'),
    'org:read': l10n('See the organization, its members and invitations', 'Ver a organização, seus membros e convites'),
    'org:admin': l10n('Invite and remove members and change their roles', 'Convidar e remover membros e mudar seus papéis'),
    offline_access: l10n('Stay connected without asking you again (refresh tokens)', 'Continuar conectado sem perguntar de novo (tokens de renovação)'),
  } as Record<string, Localized>,
  errorTitle: l10n('This authorization request cannot be completed', 'Este pedido de autorização não pode ser concluído'),
  notSentBack: l10n(
    'The application that sent you here made an invalid request, so you were not sent back to it.',
    'O aplicativo que enviou você até aqui fez um pedido inválido, por isso você não foi mandado de volta para ele.',
  ),
  signInTitle: l10n('Sign in to continue', 'Entre para continuar'),
  sessionExpired: l10n('Your session has expired.', 'Sua sessão expirou.'),
  /** After the application's name. */
  wantsAccess: l10n(
    'wants to access your Siglata workspace. Sign in first; we will e-mail you a link.',
    'quer acessar seu espaço de trabalho na Siglata. Entre primeiro; enviaremos um link por e-mail.',
  ),
  linkSent: l10n(
    'Check your e-mail: we sent you a sign-in link. Opening it brings you back to this authorization.',
    'Confira seu e-mail: enviamos um link de acesso. Ao abri-lo, você volta para esta autorização.',
  ),
  consentTitle: (clientName: string) => l10n(`Authorize ${clientName}`, `Autorizar ${clientName}`),
  /** After the application's name. */
  asks: l10n(
    'asks to use Siglata on your behalf, with the permissions below, in the organization you choose.',
    'pede para usar a Siglata em seu nome, com as permissões abaixo, na organização que você escolher.',
  ),
  signedInAs: l10n('Signed in as', 'Conectado como'),
  sentBackTo: l10n('You will be sent back to', 'Você será enviado de volta para'),
  trustedOnly: l10n('Allow only applications you trust.', 'Autorize apenas aplicativos em que você confia.'),
  organization: l10n('Organization', 'Organização'),
  mcpRevoked: l10n('MCP access is revoked for this organization.', 'O acesso MCP está revogado para esta organização.'),
  nothingGrantable: l10n('None of the requested permissions can be granted here.', 'Nenhuma das permissões pedidas pode ser concedida aqui.'),
  noOrganization: l10n(
    'You do not belong to any organization yet. Create one below (or ask for an invitation to an existing one).',
    'Você ainda não faz parte de nenhuma organização. Crie uma abaixo (ou peça um convite para uma existente).',
  ),
  createOrganization: l10n('Create an organization', 'Criar uma organização'),
  name: l10n('Name', 'Nome'),
  shortName: l10n('Short name (letters, digits, hyphens)', 'Nome curto (letras, dígitos, hífens)'),
  createAndSelect: l10n('Create and select it', 'Criar e selecioná-la'),
  allow: l10n('Allow', 'Permitir'),
  deny: l10n('Deny', 'Negar'),
};

/** The front page at `/`: what the service is, and the ways in. */
export const FRONT = {
  title: l10n('Siglata: a workspace your agents can work in', 'Siglata: um espaço de trabalho onde seus agentes trabalham'),
  lead: l10n(
    "Siglata keeps an organization's files and people in one place, and lets AI agents and scripts work on them safely: every script runs in a sandbox, with only the permissions you grant.",
    'A Siglata reúne os arquivos e as pessoas de uma organização num só lugar e deixa agentes de IA e scripts trabalharem neles com segurança: cada script roda numa sandbox, só com as permissões que você concede.',
  ),
  signIn: l10n('Sign in', 'Entrar'),
  signInHint: l10n(
    'No password: give your e-mail address and open the link we send you.',
    'Sem senha: informe seu endereço de e-mail e abra o link que enviamos.',
  ),
  openConsole: l10n('Open the console', 'Abrir o console'),
  signedInAs: l10n('You are signed in as', 'Você está conectado como'),
  features: l10n('What it does', 'O que ela faz'),
  filesTitle: l10n('Files', 'Arquivos'),
  files: l10n(
    'Upload files of any size in resumable parts, browse them by folder, download them, and restore what was deleted for 30 days.',
    'Envie arquivos de qualquer tamanho em partes retomáveis, navegue por pastas, baixe-os e restaure o que foi excluído por 30 dias.',
  ),
  peopleTitle: l10n('People', 'Pessoas'),
  people: l10n(
    'Passwordless sign-in, organizations, invitations and roles (owner, admin, member), in English and Portuguese.',
    'Acesso sem senha, organizações, convites e papéis (proprietário, administrador, membro), em inglês e português.',
  ),
  agentsTitle: l10n('Agents', 'Agentes'),
  agents: l10n(
    'Connect any MCP client, or use an API key or the command line: scripts run against your files with the scopes you allow, and every run is recorded.',
    'Conecte qualquer cliente MCP, ou use uma chave de API ou a linha de comando: os scripts rodam sobre seus arquivos com os escopos que você permite, e cada execução fica registrada.',
  ),
  /** Before the MCP endpoint's URL. */
  connectAgent: l10n('MCP endpoint for agents:', 'Endpoint MCP para agentes:'),
  ask: l10n('Ask the documentation', 'Pergunte à documentação'),
  question: l10n('Your question', 'Sua pergunta'),
  askButton: l10n('Ask', 'Perguntar'),
  askExample: l10n('For example: how do I restore a deleted file?', 'Por exemplo: como restauro um arquivo excluído?'),
  /** Before the question asked. */
  answersFor: l10n('Pages that answer', 'Páginas que respondem a'),
  noAnswer: l10n('No page of the documentation answers that. Try other words.', 'Nenhuma página da documentação responde a isso. Tente outras palavras.'),
  askUnavailable: l10n('The documentation search is not available on this server.', 'A busca na documentação não está disponível neste servidor.'),
  more: l10n('More', 'Mais'),
  docs: l10n('Documentation', 'Documentação'),
  apiDescription: l10n('API description (OpenAPI)', 'Descrição da API (OpenAPI)'),
  askApi: l10n('Search API for programs (POST /ask)', 'API de busca para programas (POST /ask)'),
  health: l10n('Service status', 'Situação do serviço'),
};
