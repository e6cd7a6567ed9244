// Callers for binding tests, resolved exactly as a Bearer request would be: mint a real access token
// (services/mint-token.ts) and turn it into a Caller through server/auth/token-caller.ts. No bypass.
import type { Caller } from '../../runtime-api/identity/caller.ts';
import type { Role } from '../../runtime-api/identity/scopes.ts';
import { invoke } from '../../runtime-api/invoke.ts';
import type { Binding } from '../../runtime-api/define.ts';
import { invokeDeps } from '../../server/deps.ts';
import { callerFromToken } from '../../server/auth/token-caller.ts';
import type { TestApp } from './app.ts';

export interface CallerRequest {
  email: string;
  /** Organization slug (created with this user as owner when missing). */
  org?: string;
  scopes?: readonly string[];
  role?: Role;
}

export async function callerFor(app: TestApp, req: CallerRequest): Promise<Caller & { token: string }> {
  const token = await app.token({
    email: req.email,
    ...(req.org ? { org: req.org } : {}),
    ...(req.scopes ? { scopes: req.scopes } : {}),
    ...(req.role ? { role: req.role } : {}),
  });
  const { caller } = await callerFromToken(app.deps, token, 'en-US');
  return { ...caller, token };
}

/** `call(binding, input)` as that caller, through `invoke` (validation, authorization, output check). */
export function caller(app: TestApp, c: Caller) {
  return <B extends Binding>(binding: B, input: unknown) => invoke(binding, input, c, invokeDeps(app.deps));
}
