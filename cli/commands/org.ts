// org: the organization of the current credentials (show, members, invitations, invite, cancel-invite), and
// switch/create, which go through the browser sign-in: the consent page picks an organization or creates one.
import { defineCommand } from '../command.ts';
import { usageError } from '../errors.ts';
import { lang } from '../i18n.ts';
import { callBinding, callList } from '../service.ts';
import { shortDate, table } from '../format.ts';
import { loginCommand } from './session.ts';

const ACTIONS = ['show', 'members', 'invitations', 'invite', 'cancel-invite', 'switch', 'create'] as const;

export const orgCommand = defineCommand({
  name: 'org',
  args: '<show | members | invitations | invite EMAIL | cancel-invite ID | switch | create>',
  summary: ['The organization: members, invitations; switch or create one through the browser', 'A organização: membros, convites; trocar ou criar uma pelo navegador'],
  details: [
    'A sign-in (or key) acts on one organization. `switch` and `create` sign in again: the consent page lists your\norganizations and has a form to create one.\n\nExamples:\n  siglata org members\n  siglata org invite ana@example.com --role admin\n  siglata org switch',
    'Um acesso (ou chave) atua sobre uma organização. `switch` e `create` entram de novo: a página de consentimento lista\nsuas organizações e tem um formulário para criar uma.\n\nExemplos:\n  siglata org members\n  siglata org invite ana@example.com --role admin\n  siglata org switch',
  ],
  options: {
    role: { type: 'string', placeholder: 'ROLE', help: ['invite: member (default), admin or owner', 'invite: member (padrão), admin ou owner'] },
    'no-browser': { type: 'boolean', help: ['switch/create: only print the address', 'switch/create: só mostrar o endereço'] },
  },
  positionals: { min: 1, max: 2, name: 'action' },
  async run(ctx, values, [action, arg]) {
    if (!(ACTIONS as readonly string[]).includes(action)) throw usageError(`org: ${action}? (${ACTIONS.join(', ')})`);
    if (action === 'switch' || action === 'create') {
      if (lang() === 'pt-BR') ctx.io.err(action === 'create' ? 'Crie a organização no formulário da página que vai abrir e selecione-a.\n' : 'Escolha a organização na página que vai abrir.\n');
      else ctx.io.err(action === 'create' ? 'Create the organization with the form on the page that opens, then allow it.\n' : 'Pick the organization on the page that opens.\n');
      return loginCommand.run(ctx, { 'no-browser': values['no-browser'] }, []);
    }
    const api = await ctx.api();
    const needArg = action === 'invite' || action === 'cancel-invite';
    if (needArg !== (arg !== undefined)) throw usageError(`org ${action}${needArg ? (action === 'invite' ? ' EMAIL' : ' ID') : ''}`);
    let result: any;
    if (action === 'show') result = await callBinding(api, 'organization_get', {});
    else if (action === 'members') result = await callList(api, 'members_list', {});
    else if (action === 'invitations') result = await callList(api, 'invitations_list', {});
    else if (action === 'invite') result = await callBinding(api, 'member_invite', { email: arg, role: values.role ?? 'member' });
    else result = await callBinding(api, 'invitation_cancel', { invitationId: arg });
    if (ctx.json || action === 'show') { ctx.printJson(result); return 0; }
    const list = Array.isArray(result) ? result : [result];
    if (action === 'members') ctx.io.out(`${table(['ID', 'ROLE', 'SINCE', 'E-MAIL'], list.map((m: any) => [String(m.id), String(m.role), shortDate(m.createdAt), String(m.email)]))}\n`);
    else ctx.io.out(`${table(['ID', 'STATUS', 'ROLE', 'EXPIRES', 'E-MAIL'], list.map((i: any) => [String(i.id), String(i.status), String(i.role), shortDate(i.expiresAt), String(i.email)]))}\n`);
    return 0;
  },
});
