// org: the organizations of the signed-in person (list, create, switch, invitations received) and the organization
// of the current credentials (show, members, invitations sent, invite, cancel-invite).
// What each credential may do (the server decides; this only explains): a person's sign-in (`login`, or
// `login --token` with a person's access token) may do everything its role allows; an organization API key acts
// for its organization only, so it lists that one and can neither create, switch nor answer invitations.
import { defineCommand } from '../command.ts';
import { CliError, usageError } from '../errors.ts';
import { unknownAction } from '../suggest.ts';
import { t } from '../i18n.ts';
import { callBinding, callList, execute, executionError } from '../service.ts';
import { shortDate, table } from '../format.ts';
import { listItems } from '../resolve.ts';
import { browserLogin } from './session.ts';
import type { CommandContext } from '../context.ts';

const ACTIONS = ['list', 'show', 'create', 'switch', 'members', 'invitations', 'invite', 'cancel-invite', 'received', 'accept', 'decline'] as const;
type Action = (typeof ACTIONS)[number];
/** The argument each action takes (none when absent); `create`'s name is optional (without it: the browser form). */
const ARGUMENT: Partial<Record<Action, string>> = { invite: 'EMAIL', 'cancel-invite': 'ID', accept: 'ID', decline: 'ID', create: 'NAME' };

/** A slug the server accepts, from a display name: "Acme Ltda." → "acme-ltda". */
export function slugOf(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/, '');
}

export const orgCommand = defineCommand({
  name: 'org',
  args: '<list | show | create [NAME] | switch | members | invitations | invite EMAIL | cancel-invite ID | received | accept ID | decline ID>',
  summary: ['Organizations: list, create, switch; members and invitations', 'Organizações: listar, criar, trocar; membros e convites'],
  details: [
    'A sign-in acts on one organization. `list` shows yours (* marks the current one), `create NAME` makes one with you as\nits owner, `switch` signs in again through the browser to pick another (`create` without NAME opens the form there).\n`received`, `accept ID` and `decline ID` answer invitations sent to your e-mail address.\n\nAn organization API key (slk_…) belongs to its organization: `list` shows that one, and `create`, `switch` and the\nanswers to invitations need your own sign-in (`siglata login`). Invitations need org:admin; lists need org:read.\n\nExamples:\n  siglata org list\n  siglata org create "Acme Research" --slug acme-research\n  siglata org switch\n  siglata org members\n  siglata org invite ana@example.com --role admin',
    'Um acesso atua sobre uma organização. `list` mostra as suas (* marca a atual), `create NOME` cria uma com você como\nproprietário, `switch` entra de novo pelo navegador para escolher outra (`create` sem NOME abre o formulário lá).\n`received`, `accept ID` e `decline ID` respondem convites enviados ao seu e-mail.\n\nUma chave de API (slk_…) pertence à organização dela: `list` mostra essa, e `create`, `switch` e as respostas a\nconvites exigem o seu próprio acesso (`siglata login`). Convites exigem org:admin; listas exigem org:read.\n\nExemplos:\n  siglata org list\n  siglata org create "Acme Pesquisa" --slug acme-pesquisa\n  siglata org switch\n  siglata org members\n  siglata org invite ana@example.com --role admin',
  ],
  options: {
    role: { type: 'string', placeholder: 'ROLE', help: ['invite: member (default), admin or owner', 'invite: member (padrão), admin ou owner'] },
    slug: {
      type: 'string',
      placeholder: 'SLUG',
      help: ['create: the address name (default: from NAME)', 'create: o nome de endereço (padrão: a partir de NOME)'],
    },
    'no-browser': { type: 'boolean', help: ['switch/create: only print the address', 'switch/create: só mostrar o endereço'] },
  },
  positionals: { min: 1, max: 2, name: 'action' },
  async run(ctx, values, [action, arg]) {
    if (!(ACTIONS as readonly string[]).includes(action)) throw unknownAction('org', action, ACTIONS);
    const act = action as Action;
    const wants = ARGUMENT[act];
    if ((wants === undefined && arg !== undefined) || (wants !== undefined && act !== 'create' && arg === undefined)) {
      throw usageError(`org ${act}${wants ? ` ${wants}` : ''}`);
    }
    if (act === 'switch' || (act === 'create' && arg === undefined)) return signInAgain(ctx, act, values);
    const api = await ctx.api();
    switch (act) {
      case 'list': {
        // One execution: the organizations and which one these credentials act on.
        const content = await execute(api, 'const page = await organizations_list({});\nreturn { page, current: (await context()).organization.id };');
        if (!content.ok) throw executionError(content);
        const answer = (content.result ?? {}) as { page?: unknown; current?: string };
        const orgs = listItems<{ id: string; slug: string; name: string; role: string }>(answer.page).map((o) => ({ ...o, current: o.id === answer.current }));
        if (ctx.json) ctx.printJson(orgs);
        else
          ctx.io.out(
            `${table(
              ['', 'SLUG', 'ROLE', 'ID', 'NAME'],
              orgs.map((o) => [o.current ? '*' : '', o.slug, o.role, o.id, o.name]),
            )}\n`,
          );
        return 0;
      }
      case 'create': {
        const slug = String(values.slug ?? slugOf(arg));
        if (slug.length < 2) throw usageError(t('orgSlugNeeded'));
        const org = await callBinding<{ id: string; slug: string; name: string }>(api, 'organization_create', { name: arg, slug });
        if (ctx.json) ctx.printJson(org);
        else ctx.io.out(`${t('orgCreated', { slug: org.slug, id: org.id })}\n`);
        return 0;
      }
      case 'show':
        ctx.printJson(await callBinding(api, 'organization_get', {}));
        return 0;
      case 'members': {
        const members = await callList<any>(api, 'members_list', {});
        if (ctx.json) ctx.printJson(members);
        else
          ctx.io.out(
            `${table(
              ['ID', 'ROLE', 'SINCE', 'E-MAIL'],
              members.map((m) => [String(m.id), String(m.role), shortDate(m.createdAt), String(m.email)]),
            )}\n`,
          );
        return 0;
      }
      case 'invitations':
      case 'invite':
      case 'cancel-invite': {
        const result =
          act === 'invitations'
            ? await callList<any>(api, 'invitations_list', {})
            : [
                await callBinding(
                  api,
                  act === 'invite' ? 'member_invite' : 'invitation_cancel',
                  act === 'invite' ? { email: arg, role: values.role ?? 'member' } : { invitationId: arg },
                ),
              ];
        if (ctx.json) ctx.printJson(act === 'invitations' ? result : result[0]);
        else
          ctx.io.out(
            `${table(
              ['ID', 'STATUS', 'ROLE', 'EXPIRES', 'E-MAIL'],
              result.map((i) => [String(i.id), String(i.status), String(i.role), shortDate(i.expiresAt), String(i.email)]),
            )}\n`,
          );
        return 0;
      }
      case 'received': {
        const received = await callList<any>(api, 'invitations_received', {});
        if (ctx.json) ctx.printJson(received);
        else
          ctx.io.out(
            `${table(
              ['ID', 'ROLE', 'EXPIRES', 'ORGANIZATION'],
              received.map((i) => [String(i.id), String(i.role), shortDate(i.expiresAt), String(i.organizationName)]),
            )}\n`,
          );
        return 0;
      }
      default: {
        const answer = await callBinding(api, act === 'accept' ? 'invitation_accept' : 'invitation_reject', { invitationId: arg });
        if (ctx.json) ctx.printJson(answer);
        else ctx.io.out(`${t(act === 'accept' ? 'invitationAccepted' : 'invitationDeclined', { id: arg })}\n`);
        return 0;
      }
    }
  },
});

/**
 * `switch`, and `create` without a name: a new browser sign-in, whose consent page lists the person's organizations
 * and has a form to create one. Refused, with the reason, for credentials that cannot be replaced that way.
 */
async function signInAgain(ctx: CommandContext, act: 'switch' | 'create', values: Record<string, string | boolean | undefined>): Promise<number> {
  const credential = await ctx.credential();
  if (credential.source === 'option') throw new CliError('fixed_credential', t('orgFixedToken'), { resolution: t('orgFixedTokenHelp'), exitCode: 2 });
  if (credential.apiKey) throw new CliError('api_key_bound', t('orgKeyBound'), { resolution: t('orgKeyBoundHelp') });
  ctx.io.err(`${t(act === 'create' ? 'orgCreateInBrowser' : 'orgPickInBrowser')}\n`);
  return browserLogin(ctx, { browser: !values['no-browser'] });
}
