// The accounting principals of an execution: the organization it runs for and the person behind it (the account of
// the session, token or API key). Every budget the engine keeps (fair share of isolates, queue share, CPU history,
// crash budget, quarantine) counts each of them, so that more organizations buy one person no more capacity.
export const orgPrincipal = (tenant: string) => `org:${tenant}`;
export const personPrincipal = (person: string) => `person:${person}`;

/** The organization's key, then the person's when the caller named one. */
export function principalsOf(ex: { readonly tenant: string; readonly person: string }): string[] {
  return ex.person ? [orgPrincipal(ex.tenant), personPrincipal(ex.person)] : [orgPrincipal(ex.tenant)];
}

/**
 * The party an execution is counted as when shares are divided: its person, or its organization when the caller named
 * no person. Dividing by organizations would give one person's many organizations a share each.
 */
export function partyOf(ex: { readonly tenant: string; readonly person: string }): string {
  return ex.person ? personPrincipal(ex.person) : orgPrincipal(ex.tenant);
}
