// The runtime API's one front door: everything the server may use of it. The server imports nothing else from
// runtime-api (bootstrap alone also reaches the migrations and the blob stores), and test/contract/layers.test.ts
// keeps it so: what the server can call is read here, not found by grepping its imports.

// Errors, messages and the clock.
export { ERROR_TABLE, LOCALES, ServiceError, conflict, l10n, tr } from './errors.ts';
export type { ErrorCode, Locale, Localized } from './errors.ts';
export { systemClock } from './clock.ts';
export type { Clock } from './clock.ts';
export { hashSecret, newId, newSecret } from './ids.ts';
export { hexCrc } from './crc32-combine.ts';
export { fromDatabaseError } from './store/errors.ts';

// Who is calling: sessions, tokens, API keys, scopes and membership.
export type { Caller, Credential } from './identity/caller.ts';
export { credentialOf } from './identity/caller.ts';
export { GRANTABLE_SCOPES, SCOPES, effectiveScopes } from './identity/scopes.ts';
export type { Role, Scope } from './identity/scopes.ts';
export { endSession, resolveSession, sessionCaller, setActiveOrganization } from './identity/sessions.ts';
export { InvalidTokenError, issueAccessToken, mcpAudiences, verifyAccessToken } from './identity/access-tokens.ts';
export type { AccessTokenClaims } from './identity/access-tokens.ts';
export { SigningKeys } from './identity/signing-keys.ts';
export { callerForOrganization, requireAdmin } from './identity/organization-caller.ts';
export { membershipRequired, refusalResolution, sessionExpired, sessionUnauthorized, scopeFix } from './identity/messages.ts';
export type { BearerCredential } from './identity/messages.ts';
export { CredentialRefused, resolveTokenCaller } from './identity/token-caller.ts';
export type { TokenCaller, TokenCheck } from './identity/token-caller.ts';
export { MAGIC_TOKEN_MAX_LENGTH, normalizeEmail, requestMagicLink, sameSitePath, verifyMagicLink } from './identity/sign-in.ts';
export type { ResolvedSessionRow } from './store/sessions.ts';
export { findUserById } from './store/users.ts';
export { listUserOrganizations } from './store/members.ts';
export { findMembership, mcpAccess } from './store/organizations.ts';
export { callerForInvitation, invitationToShow } from './services/invitations.ts';
export { escapeHtml } from './mail-html.ts';

// Bindings: their declarations, the registry and invocation (every face calls these).
export { tokenScopeOf } from './define.ts';
export type { AnySchema, Binding, Mailer } from './define.ts';
export { BINDINGS, findBinding } from './registry.ts';
export { authorize, describeIssues, invoke, refusalOf } from './invoke.ts';
export type { RefusalReason } from './invoke.ts';
export { NAMING_CONVENTION, inputAliases, validateInput } from './input-keys.ts';
export type { InvokeDeps } from './invoke.ts';
export { invokeWholeList, listItemsSchema } from './services/whole-list.ts';
export { LIST_CONVENTION } from './list-page.ts';
export { jsonSchemaOf } from './project/json-schema.ts';
export type { JsonSchema } from './project/json-schema.ts';
export { bindingDeclaration } from './project/to-dts.ts';
export { recordSheet } from './project/record-sheet.ts';

// Scripts: what an execute request carries and answers, and the one dispatch every face calls.
export { executeInMode } from './execution/execute.ts';
export type { ExecuteContext } from './execution/context.ts';
export { ExecuteInput } from './execution/input.ts';
export { ExecuteOutcomeSchema, PlannedOperationSchema } from './execution/result.ts';
export type { ExecuteOutcome } from './execution/result.ts';

// Files and transfers.
export { MAX_PARTS, PART_SIZE, partTarget, storePart } from './services/uploads.ts';
export { fileToDownload, readFileBytes } from './services/downloads.ts';
export type { FileRow } from './store/files.ts';
export type { BlobStore } from './blobs/port.ts';
export { FileId, UploadId } from './bindings/files/schemas.ts';
export { ExportId } from './bindings/files/archive-schemas.ts';
export { archiveStream, exportToDownload } from './services/archive/export.ts';
export { files_restore } from './bindings/files/files_restore.ts';
export { files_list } from './bindings/files/files_list.ts';
export { files_folders } from './bindings/files/files_folders.ts';
export { WORKBOOK_VERSION, WorkbookSchema } from './bindings/spreadsheets/workbook.ts';

// Organizations, API keys, OAuth grants and MCP access.
export { EmailSchema, IdSchema, MemberIdOrEmailSchema, MetadataSchema, NameSchema, RoleSchema, SlugSchema } from './bindings/organization/schemas.ts';
export { ROLE_NAMES } from './services/organization-messages.ts';
export { organization_create } from './bindings/organization/organization_create.ts';
export { MaxScopesSchema, McpAccessStateSchema } from './bindings/mcp/schemas.ts';
export type { McpAccessSchema } from './bindings/mcp/schemas.ts';
export { mcp_access_get } from './bindings/mcp/mcp_access_get.ts';
export { mcp_access_set } from './bindings/mcp/mcp_access_set.ts';
export { mcp_access_changes } from './bindings/mcp/mcp_access_changes.ts';
export type { ApiKeySchema } from './bindings/api-keys/schemas.ts';
export { api_keys_create } from './bindings/api-keys/api_keys_create.ts';
export { api_keys_revoke } from './bindings/api-keys/api_keys_revoke.ts';
export { api_keys_list } from './bindings/api-keys/api_keys_list.ts';
export { oauth_grant_revoke } from './bindings/oauth/oauth_grant_revoke.ts';
export { oauth_grants_list } from './bindings/oauth/oauth_grants_list.ts';
export { context } from './bindings/context/context.ts';
export { executions_list } from './bindings/executions/executions_list.ts';
export {
  consumeCode,
  findClient,
  findCode,
  findGrant,
  findRefreshToken,
  grantState,
  insertClient,
  insertCode,
  insertGrant,
  insertRefreshToken,
  purgeExpiredOAuthSecrets,
  revokeGrant,
  useRefreshToken,
} from './store/oauth.ts';
export type { ClientRow, GrantRow } from './store/oauth.ts';
export * as organizationBindings from './bindings/organization/index.ts';

// Running the service: database, janitors, engine strikes, health.
export { connect } from './store/sql.ts';
export { listMigrations } from './store/migrate.ts';
export { poolUsage } from './store/pool-usage.ts';
export { engineStrikeLedger } from './store/engine-strikes.ts';
export { JANITOR_INTERVAL_MS, startJanitors } from './services/janitors.ts';
export { auditLogFor } from './services/audit-log.ts';
