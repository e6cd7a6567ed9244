// The console's form actions, one entry each: the form's fields (valibot), the page it returns to, the notice on
// success, and the binding call it makes as the session's caller. Routes and OpenAPI are generated from this list.
import * as v from 'valibot';
import {
  ServiceError,
  type Caller,
  type Binding,
  type Localized,
  invoke,
  invokeWholeList,
  type Role,
  callerForOrganization,
  membershipRequired,
  requireAdmin,
  setActiveOrganization,
  organizationBindings as org,
  files_restore,
  findBinding,
  IdSchema,
  EmailSchema,
  NameSchema,
  RoleSchema,
  SlugSchema,
  oauth_grant_revoke,
  mcp_access_set,
  api_keys_create,
  api_keys_revoke,
} from '../../runtime-api/index.ts';
import { invokeDeps, type AppDeps } from '../deps.ts';
import type { ConsolePageName } from '../pages/console/layout.ts';
import { FILES, MEMBERS, NOTICES } from '../pages/console/texts.ts';
import { resendForm } from '../pages/console/members.ts';
import { renameChoices, restoreChoices } from '../pages/console/files.ts';
import { noScopesConfirm, nothingSelected, someNotDone } from './messages.ts';
import { folderPath } from './files-view.ts';
import { errorText, reasonOnly } from './refusal-text.ts';

export interface ActionContext {
  deps: AppDeps;
  caller: Caller;
  sessionId: string;
  /** The whole form, for fields sent several times (checkboxes). */
  form: URLSearchParams;
}

/** What an action shows at once instead of redirecting (a secret that must be displayed exactly once). */
export interface ActionResult {
  newKey: { name: string; key: string };
}

/** A trashed file whose path another active file holds: the trash offers replace or restore beside it. */
export interface RefusalChoice {
  restore: { fileId: string; path: string; existingFileId: string };
}

/** How the console words a refusal the API words for programs, and the way out it offers on the page. */
export interface Refusal {
  message: string;
  /** HTML under the message (e.g. a form to send an invitation again). */
  action?: string;
}

export interface ConsoleAction {
  name: string;
  page: ConsolePageName;
  summary: string;
  fields: v.ObjectSchema<v.ObjectEntries, undefined>;
  notice: Localized;
  run(a: ActionContext, input: Record<string, string>): Promise<void | ActionResult>;
  /** The page to come back to when it depends on the form (default `page`). */
  pageFor?(form: URLSearchParams): ConsolePageName;
  /** How this form's fields are labelled where they differ from the console's usual names. */
  labels?: Record<string, Localized>;
  /** The page's query to come back to (e.g. the file or folder the form acted on); from the form as sent. */
  pageQuery?(form: URLSearchParams): Record<string, string | undefined>;
  /** What the page shows beside a refusal, when the refusal asks the person to choose (e.g. a restore whose path is taken). */
  refused?(error: ServiceError, input: Record<string, string>): RefusalChoice | undefined;
  /** The console's own words for a refusal, where the binding's speak of API arguments; null keeps the binding's. */
  refusal?(a: ActionContext & { csrf: string }, form: URLSearchParams, error: ServiceError): Promise<Refusal | null>;
}

/** Files one bulk action acts on at most (a page shows 50). */
const BULK_MAX = 200;
const FileIdField = v.pipe(v.string(), v.minLength(1), v.maxLength(128));
const binding = (name: string): Binding => findBinding(name)!;

const call = (a: ActionContext, binding: Binding, input: unknown, caller: Caller = a.caller) => invoke(binding, input, caller, invokeDeps(a.deps));

/** Organization actions act on the session's active organization; admin ones say why a member is refused. */
function inOrganization(a: ActionContext, admin: boolean): Caller {
  if (!a.caller.membership) throw membershipRequired(a.caller.locale);
  if (admin) requireAdmin(a.caller);
  return a.caller;
}

const activate = (a: ActionContext, orgId: string) => setActiveOrganization(a.deps.sql, a.sessionId, orgId);

export const CONSOLE_ACTIONS: readonly ConsoleAction[] = [
  {
    name: 'organization-create',
    page: 'home',
    summary: 'Create an organization (you become its owner; it becomes active)',
    fields: v.object({ name: NameSchema, slug: SlugSchema }),
    notice: NOTICES.organizationCreated,
    async run(a, input) {
      const created = await call(a, org.organization_create, { name: input.name, slug: input.slug });
      await activate(a, created.organizationId);
    },
  },
  {
    name: 'organization-switch',
    page: 'home',
    summary: 'Make one of your organizations the active one',
    fields: v.object({ organizationId: IdSchema }),
    notice: NOTICES.organizationSwitched,
    async run(a, input) {
      await callerForOrganization(a.deps.sql, a.caller, input.organizationId); // a member of it, else refused
      await activate(a, input.organizationId);
    },
  },
  {
    name: 'invitation-accept',
    page: 'home',
    summary: 'Accept an invitation sent to you (its organization becomes active)',
    fields: v.object({ invitationId: IdSchema }),
    notice: NOTICES.invitationAccepted,
    async run(a, input) {
      const accepted = await call(a, org.invitation_accept, { invitationId: input.invitationId });
      await activate(a, accepted.invitation.organizationId);
    },
  },
  {
    name: 'invitation-reject',
    page: 'home',
    summary: 'Decline an invitation sent to you',
    fields: v.object({ invitationId: IdSchema }),
    notice: NOTICES.invitationDeclined,
    async run(a, input) {
      await call(a, org.invitation_reject, { invitationId: input.invitationId });
    },
  },
  {
    name: 'member-invite',
    page: 'members',
    summary: 'Invite an e-mail address to the active organization',
    fields: v.object({ email: EmailSchema, role: RoleSchema }),
    notice: NOTICES.invitationSent,
    async run(a, input) {
      await call(a, org.member_invite, { email: input.email, role: input.role }, inOrganization(a, true));
    },
    async refusal(a, form, error) {
      // The API says to send again with `"resend": true`; a person gets the button that does it.
      if (error.code !== 'conflict') return null;
      const email = (form.get('email') ?? '').trim().toLowerCase();
      const pending = (await invokeWholeList(org.invitations_list, {}, a.caller, invokeDeps(a.deps))) as { email: string; role: Role }[];
      const invitation = pending.find((i) => i.email.toLowerCase() === email);
      if (!invitation) return null;
      return {
        message: MEMBERS.alreadyInvited(invitation.email)[a.caller.locale],
        action: resendForm(a.caller.locale, a.csrf, { email: invitation.email, role: (form.get('role') as Role) || invitation.role }),
      };
    },
  },
  {
    name: 'invitation-resend',
    page: 'members',
    summary: 'Send a pending invitation again (a new link, valid 48 hours)',
    fields: v.object({ email: EmailSchema, role: RoleSchema }),
    notice: NOTICES.invitationResent,
    async run(a, input) {
      await call(a, org.member_invite, { email: input.email, role: input.role, resend: true }, inOrganization(a, true));
    },
  },
  {
    name: 'invitation-cancel',
    page: 'members',
    summary: 'Cancel a pending invitation of the active organization',
    fields: v.object({ invitationId: IdSchema }),
    notice: NOTICES.invitationCancelled,
    async run(a, input) {
      await call(a, org.invitation_cancel, { invitationId: input.invitationId }, inOrganization(a, true));
    },
  },
  {
    name: 'member-role',
    page: 'members',
    summary: "Change a member's role",
    fields: v.object({ memberId: IdSchema, role: RoleSchema }),
    notice: NOTICES.roleChanged,
    async run(a, input) {
      await call(a, org.member_update_role, { memberId: input.memberId, role: input.role }, inOrganization(a, true));
    },
  },
  {
    name: 'member-remove',
    page: 'members',
    summary: 'Remove a member from the active organization',
    fields: v.object({ memberId: IdSchema }),
    notice: NOTICES.memberRemoved,
    async run(a, input) {
      await call(a, org.member_remove, { memberIdOrEmail: input.memberId }, inOrganization(a, true));
    },
  },
  {
    name: 'file-restore',
    page: 'trash',
    summary: 'Restore a file from the trash (back to the trash, the folder it left, or its details, as `back` says)',
    fields: v.object({
      fileId: FileIdField,
      onConflict: v.optional(v.picklist(['fail', 'replace', 'rename'])),
      back: v.optional(v.picklist(['trash', 'files', 'file'])),
      path: v.optional(v.pipe(v.string(), v.maxLength(1024))),
    }),
    notice: NOTICES.fileRestored,
    pageFor: (form) => (form.get('back') === 'files' ? 'files' : form.get('back') === 'file' ? 'file' : 'trash'),
    pageQuery: (form) =>
      form.get('back') === 'files' ? { path: form.get('path') ?? '' } : form.get('back') === 'file' ? { fileId: form.get('fileId') ?? '' } : {},
    async run(a, input) {
      await call(a, files_restore, { fileId: input.fileId, onConflict: input.onConflict ?? 'fail' }, inOrganization(a, false));
    },
    refused(error, input) {
      if (error.code !== 'path_taken' || !input.fileId) return undefined;
      const details = error.details as { path: string; existingFileId: string };
      return { restore: { fileId: input.fileId, path: details.path, existingFileId: details.existingFileId } };
    },
    async refusal(a, form, error) {
      // The API's fix names onConflict; a person gets buttons. In the trash they sit on the file's row; elsewhere (Undo
      // in a folder, a file's details) they come with the refusal.
      if (error.code !== 'path_taken') return null;
      const reason = reasonOnly(error, a.caller.locale);
      if (!form.get('back') || form.get('back') === 'trash') return { message: reason };
      const path = (error.details as { path: string }).path;
      return {
        message: `${reason} ${FILES.pathTaken(path)[a.caller.locale]}`,
        action: restoreChoices(a.caller.locale, a.csrf, { fileId: form.get('fileId') ?? '', name: path }, form),
      };
    },
  },
  {
    name: 'file-trash',
    page: 'files',
    summary: 'Move a file to the trash (restorable for 30 days); back to its folder, with an Undo button',
    fields: v.object({ fileId: FileIdField, path: v.optional(v.pipe(v.string(), v.maxLength(1024))) }),
    notice: NOTICES.fileTrashed,
    pageQuery: (form) => ({ path: form.get('path') ?? '', undo: form.get('fileId') ?? '' }),
    async run(a, input) {
      await call(a, binding('files_trash'), { fileId: input.fileId }, inOrganization(a, false));
    },
  },
  {
    name: 'files-bulk',
    page: 'files',
    summary: 'Move the selected files (fileId, repeated) to the trash, or to the folder `target`',
    fields: v.object({
      fileId: v.optional(FileIdField),
      op: v.picklist(['trash', 'move']),
      target: v.optional(v.pipe(v.string(), v.maxLength(1024))),
      path: v.optional(v.pipe(v.string(), v.maxLength(1024))),
    }),
    notice: NOTICES.filesDone,
    pageQuery: (form) => ({ path: form.get('path') ?? '' }),
    async run(a, input) {
      const caller = inOrganization(a, false);
      const ids = [...new Set(a.form.getAll('fileId'))].slice(0, BULK_MAX);
      if (!ids.length) throw nothingSelected(caller.locale);
      const target = folderPath(input.target ?? '');
      const failures: [string, string][] = [];
      let done = 0;
      // One binding call per file, as any other face would make them: each file succeeds or fails on its own.
      for (const fileId of ids) {
        let name = fileId;
        try {
          const file = await call(a, binding('files_get'), { fileId }, caller);
          name = file.name;
          if (input.op === 'trash') await call(a, binding('files_trash'), { fileId }, caller);
          else await call(a, binding('files_update'), { fileId, name: `${target}${file.name.split('/').pop()}` }, caller);
          done++;
        } catch (err) {
          if (!(err instanceof ServiceError) || err.status >= 500) throw err;
          failures.push([name, err.code === 'path_taken' ? reasonOnly(err, caller.locale) : errorText(err, caller.locale)]);
        }
      }
      if (failures.length) throw someNotDone(done, failures);
    },
  },
  {
    name: 'file-delete',
    page: 'trash',
    summary: 'Delete a file in the trash for good',
    fields: v.object({ fileId: FileIdField }),
    notice: NOTICES.fileDeleted,
    async run(a, input) {
      await call(a, binding('files_delete'), { fileId: input.fileId }, inOrganization(a, false));
    },
  },
  {
    name: 'file-rename',
    page: 'file',
    summary: 'Rename or move a file (its path), and change its media type',
    fields: v.object({
      fileId: FileIdField,
      newName: v.pipe(v.string(), v.minLength(1), v.maxLength(1024)),
      mediaType: v.optional(v.pipe(v.string(), v.maxLength(255))),
      onConflict: v.optional(v.picklist(['fail', 'replace', 'rename'])),
    }),
    notice: NOTICES.fileRenamed,
    labels: { name: FILES.newPath },
    pageQuery: (form) => ({ fileId: form.get('fileId') ?? '' }),
    async run(a, input) {
      const mediaType = input.mediaType?.trim();
      await call(
        a,
        binding('files_update'),
        { fileId: input.fileId, name: input.newName, onConflict: input.onConflict ?? 'fail', ...(mediaType ? { mediaType } : {}) },
        inOrganization(a, false),
      );
    },
    async refusal(a, form, error) {
      // Another file holds the path asked for: replace it (it goes to the trash) or take a free name beside it.
      if (error.code !== 'path_taken') return null;
      const path = (error.details as { path: string }).path;
      return {
        message: `${reasonOnly(error, a.caller.locale)} ${FILES.moveTaken(path)[a.caller.locale]}`,
        action: renameChoices(a.caller.locale, a.csrf, form),
      };
    },
  },
  {
    name: 'grant-revoke',
    page: 'agents',
    summary: "Revoke an OAuth app's grant: its tokens stop working at once",
    fields: v.object({ grantId: IdSchema }),
    notice: NOTICES.grantRevoked,
    async run(a, input) {
      await call(a, oauth_grant_revoke, { grantId: input.grantId }, inOrganization(a, true));
    },
  },
  {
    name: 'mcp-access-set',
    page: 'agents',
    summary: "Set the organization's MCP access state and maxScopes",
    fields: v.object({ state: v.picklist(['testing', 'active', 'revoked']), allowNone: v.optional(v.literal('1')) }),
    notice: NOTICES.mcpAccessSaved,
    async run(a, input) {
      const maxScopes = a.form.getAll('scopes');
      // No scope at all while agents are on serves nobody and tells agents to ask for what cannot be granted: the
      // person confirms it (or chooses revoked) instead of finding out from an agent.
      if (!maxScopes.length && input.state !== 'revoked' && input.allowNone !== '1') throw noScopesConfirm(a.caller.locale);
      await call(a, mcp_access_set, { state: input.state, maxScopes }, inOrganization(a, true));
    },
  },
  {
    name: 'api-key-create',
    page: 'agents',
    summary: 'Create an organization API key (shown once, on the answer)',
    fields: v.object({ name: NameSchema, expiresInDays: v.pipe(v.string(), v.regex(/^\d{1,4}$/)) }),
    notice: NOTICES.apiKeyCreated,
    async run(a, input) {
      const created = await call(
        a,
        api_keys_create,
        { name: input.name, scopes: a.form.getAll('scopes'), expiresInDays: Number(input.expiresInDays) },
        inOrganization(a, true),
      );
      return { newKey: { name: created.name, key: created.key } };
    },
  },
  {
    name: 'api-key-revoke',
    page: 'agents',
    summary: 'Revoke an organization API key',
    fields: v.object({ keyId: IdSchema }),
    notice: NOTICES.apiKeyRevoked,
    async run(a, input) {
      await call(a, api_keys_revoke, { keyId: input.keyId }, inOrganization(a, true));
    },
  },
];
