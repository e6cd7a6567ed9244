// The explicit list of bindings. Adding one is one file plus one line here.
import type { Binding } from './define.ts';
import { context } from './bindings/context/context.ts';
import { files_list } from './bindings/files/files_list.ts';
import { files_folders } from './bindings/files/files_folders.ts';
import { files_get } from './bindings/files/files_get.ts';
import { files_update } from './bindings/files/files_update.ts';
import { files_trash } from './bindings/files/files_trash.ts';
import { files_restore } from './bindings/files/files_restore.ts';
import { files_delete } from './bindings/files/files_delete.ts';
import { files_read_text } from './bindings/files/files_read_text.ts';
import { files_write_text } from './bindings/files/files_write_text.ts';
import { files_write_bytes } from './bindings/files/files_write_bytes.ts';
import { files_read_bytes } from './bindings/files/files_read_bytes.ts';
import { files_import } from './bindings/files/files_import.ts';
import { files_export } from './bindings/files/files_export.ts';
import { upload_begin } from './bindings/uploads/upload_begin.ts';
import { upload_status } from './bindings/uploads/upload_status.ts';
import { upload_complete } from './bindings/uploads/upload_complete.ts';
import { upload_abort } from './bindings/uploads/upload_abort.ts';
import { executions_list } from './bindings/executions/executions_list.ts';
import { organization_get } from './bindings/organization/organization_get.ts';
import { members_list } from './bindings/organization/members_list.ts';
import { invitations_list } from './bindings/organization/invitations_list.ts';
import { member_invite } from './bindings/organization/member_invite.ts';
import { invitation_cancel } from './bindings/organization/invitation_cancel.ts';
import { member_update_role } from './bindings/organization/member_update_role.ts';
import { member_remove } from './bindings/organization/member_remove.ts';
import { organization_create } from './bindings/organization/organization_create.ts';
import { organizations_list } from './bindings/organization/organizations_list.ts';
import { invitation_accept } from './bindings/organization/invitation_accept.ts';
import { invitation_reject } from './bindings/organization/invitation_reject.ts';
import { invitations_received } from './bindings/organization/invitations_received.ts';
import { oauth_grants_list } from './bindings/oauth/oauth_grants_list.ts';
import { oauth_grant_revoke } from './bindings/oauth/oauth_grant_revoke.ts';
import { spreadsheet_read } from './bindings/spreadsheets/spreadsheet_read.ts';
import { spreadsheet_write } from './bindings/spreadsheets/spreadsheet_write.ts';
import { mcp_access_get } from './bindings/mcp/mcp_access_get.ts';
import { mcp_access_set } from './bindings/mcp/mcp_access_set.ts';
import { mcp_access_changes } from './bindings/mcp/mcp_access_changes.ts';
import { api_keys_create } from './bindings/api-keys/api_keys_create.ts';
import { api_keys_list } from './bindings/api-keys/api_keys_list.ts';
import { api_keys_revoke } from './bindings/api-keys/api_keys_revoke.ts';

export const BINDINGS: readonly Binding[] = [
  context,
  files_list,
  files_folders,
  files_get,
  files_update,
  files_trash,
  files_restore,
  files_delete,
  files_read_text,
  files_write_text,
  files_write_bytes,
  files_read_bytes,
  files_import,
  files_export,
  upload_begin,
  upload_status,
  upload_complete,
  upload_abort,
  executions_list,
  organization_get,
  members_list,
  invitations_list,
  member_invite,
  invitation_cancel,
  member_update_role,
  member_remove,
  organization_create,
  organizations_list,
  invitation_accept,
  invitation_reject,
  invitations_received,
  oauth_grants_list,
  oauth_grant_revoke,
  spreadsheet_read,
  spreadsheet_write,
  mcp_access_get,
  mcp_access_set,
  mcp_access_changes,
  api_keys_create,
  api_keys_list,
  api_keys_revoke,
];

const BY_NAME = new Map(BINDINGS.map((b) => [b.name, b]));

export function findBinding(name: string): Binding | undefined {
  return BY_NAME.get(name);
}
