// A strict OpenID Connect Discovery 1.0 validator, built from section 3 of the specification: every member it marks
// REQUIRED, the types of the members it defines, and the rules strict clients enforce (RS256 listed among the ID
// token algorithms; an issuer URL without query or fragment). oauth4webapi and openid-client check only the issuer,
// so this is the schema a stricter relying party (e.g. one built on authlib's OpenIDProviderMetadata) applies.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

const url = { type: 'string', format: 'uri', pattern: '^https?://[^?#]+$' };
const strings = { type: 'array', items: { type: 'string' } };

/** OIDC Discovery 1.0 section 3, "OpenID Provider Metadata". */
export const OIDC_PROVIDER_METADATA_SCHEMA = {
  type: 'object',
  required: [
    'issuer',
    'authorization_endpoint',
    'token_endpoint',
    'jwks_uri',
    'response_types_supported',
    'subject_types_supported',
    'id_token_signing_alg_values_supported',
  ],
  properties: {
    issuer: url,
    authorization_endpoint: url,
    token_endpoint: url,
    userinfo_endpoint: url,
    jwks_uri: url,
    registration_endpoint: url,
    scopes_supported: strings,
    response_types_supported: { ...strings, minItems: 1 },
    response_modes_supported: strings,
    grant_types_supported: strings,
    acr_values_supported: strings,
    subject_types_supported: { type: 'array', minItems: 1, items: { enum: ['public', 'pairwise'] } },
    id_token_signing_alg_values_supported: { ...strings, contains: { const: 'RS256' } },
    id_token_encryption_alg_values_supported: strings,
    userinfo_signing_alg_values_supported: strings,
    request_object_signing_alg_values_supported: strings,
    token_endpoint_auth_methods_supported: strings,
    token_endpoint_auth_signing_alg_values_supported: { ...strings, not: { contains: { const: 'none' } } },
    display_values_supported: strings,
    claim_types_supported: strings,
    claims_supported: strings,
    service_documentation: url,
    claims_locales_supported: strings,
    ui_locales_supported: strings,
    claims_parameter_supported: { type: 'boolean' },
    request_parameter_supported: { type: 'boolean' },
    request_uri_parameter_supported: { type: 'boolean' },
    require_request_uri_registration: { type: 'boolean' },
    op_policy_uri: url,
    op_tos_uri: url,
  },
};

/** The validation errors of `document`, as `path: message` lines; empty when a strict client accepts it. */
export function oidcDiscoveryProblems(document: unknown): string[] {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  const validate = ajv.compile(OIDC_PROVIDER_METADATA_SCHEMA);
  if (validate(document)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'}: ${e.message}`);
}
