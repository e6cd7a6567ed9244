// The OpenAPI document's description: how to use the API and the answers to what the spec leaves "not shown".
export const API_DESCRIPTION = `A multi-tenant workspace: passwordless sign-in, organizations with roles, a file catalogue per
organization, and a sandboxed JavaScript engine reached through the MCP \`execute\` tool and \`POST /app/v1/execute\`.

## Authentication
- Browser and API users sign in with a magic link (\`POST /auth/sign-in/magic-link\`); the link is valid 10 minutes and
  single-use; the session cookie lasts 7 days, sliding. An expired session answers 401 \`SESSION_EXPIRED\`.
- MCP clients and scripts use OAuth 2.1 access tokens (authorization code + PKCE S256, dynamic client registration at
  \`/oauth/register\`, metadata at \`/.well-known/oauth-authorization-server\`). Access tokens are ES256 JWTs
  (\`typ: at+jwt\`) valid 1 hour, bound to one organization. Refresh tokens (scope \`offline_access\`) rotate on use.
- Scopes: \`files:read\`, \`files:write\`, \`org:read\`, \`org:admin\`, \`offline_access\`. A token's effective scopes are
  its granted scopes ∩ its user's role (members never hold \`org:admin\`) ∩ the organization's MCP \`maxScopes\`.
- CI jobs and headless agents use organization API keys: \`Authorization: Bearer slk_…\`, accepted wherever an access
  token is (MCP, \`/app/v1\`, the upload and download routes). An owner or admin creates one with the \`api_keys_create\`
  binding (or \`siglata keys create\`): scoped within the creator's scopes and the organization's \`maxScopes\`, expiring
  after 1 to 365 days (default 90), shown once and stored only as its SHA-256, listed with its last use by
  \`api_keys_list\`, ended at once by \`api_keys_revoke\`. A key acts as its creator, has its own rate-limit window, and
  cannot create keys. An unknown, expired or revoked key is 401 \`unauthorized\`.

## Errors
Two shapes (spec section 7): domain-state errors are \`{code, message}\`; request and authentication errors are
\`{error: {code, message, resolution}}\`, where \`resolution\` says how to fix the request. Messages follow
\`x-service-locale\` (\`en-US\` default, \`pt-BR\`). 5xx bodies never carry internals; quote the \`x-request-id\`
response header when reporting one.

## Limits
- 120 requests per 60-second window per bearer token, else per client IP. Every response carries
  \`RateLimit-Limit\`, \`RateLimit-Remaining\`, \`RateLimit-Reset\` and \`RateLimit-Policy\`; request 121 gets
  429 \`rate_limited\` with \`Retry-After\` (seconds until the window resets).
- Uploads: parts of exactly 8,388,608 bytes (the final part carries the remainder), part numbers 1 to 10,000; an
  upload reservation lives 24 hours, then parts and completion answer 410 \`upload_expired\`.
- Request bodies: JSON bodies (\`Content-Type: application/json\` or \`application/*+json\`, UTF-8, no
  \`Content-Encoding\`) of at most 1 MiB by default (the deployment's \`JSON_BODY_MAX_BYTES\`) on \`/app/v1\`, the
  organization routes and MCP; 8192 bytes on \`/ask\`, 8 KiB and 4 KiB on sign-in, 16 KiB for forms. Counted as the
  bytes arrive, chunked bodies included: over the limit is 413 \`payload_too_large\`, another media type or an
  encoding 415 \`unsupported_media_type\`, an empty body, invalid UTF-8 or JSON, or a \`__proto__\` key 400
  \`invalid_request\` (MCP answers those as a JSON-RPC -32700; the OAuth endpoints as RFC 6749 \`invalid_request\`).
- Storage quota: 10 GiB per organization, counting active and trashed files and open reservations.
- Trash: files can be restored for 30 days, then 410 \`restore_expired\`; they are purged afterwards.

## Versioning
Breaking changes get a new path version (\`/v1/mcp\`, \`/app/v1\`, \`/schema/spreadsheet/1\`). A deprecated operation is
marked \`deprecated\` here and answers with \`Deprecation\`, \`Sunset\` and \`Link: <…>; rel="sunset"\` headers for at least
6 months before removal.`;
