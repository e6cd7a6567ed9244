// The plan token: a JWS (ES256, typ plan+jwt, 15 minutes) binding a plan to its organization, its planner, the
// script's hash and the planned writes, so an apply can check each write against the plan before running it.
import { createHash } from 'node:crypto';
import { SignJWT, jwtVerify, decodeProtectedHeader } from 'jose';
import type { SigningKey, SigningKeys } from '../identity/signing-keys.ts';
import type { PlannedOperation } from './result.ts';
import { scriptHash } from './script-hash.ts';
import { planTokenInvalid, scriptNotPlanned } from './messages.ts';

const PLAN_TTL_SECONDS = 15 * 60;

/** What an apply checks its writes against, read from a verified token. */
export interface VerifiedPlan {
  ops: string;
  n: number;
  seq: string;
}

export interface PlanClaims {
  org: string;
  user: string;
  source: string;
  operations: readonly PlannedOperation[];
}

function operationsHash(ops: readonly Pick<PlannedOperation, 'binding' | 'input'>[]): string {
  return createHash('sha256')
    .update(JSON.stringify(ops.map((o) => [o.binding, o.input])))
    .digest('hex');
}

/**
 * Each planned write's short digest, in order, concatenated: the apply checks every write against its planned
 * digest before running it, so a write the plan never held is refused, not performed and rolled back (mail or
 * blobs would outlive the rollback). 8 bytes each keeps a 1,000-write plan's token under 16 KB; the full
 * operationsHash still decides at the end.
 */
const DIGEST_BYTES = 8;
function operationDigest(binding: string, input: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify([binding, input]))
    .digest()
    .subarray(0, DIGEST_BYTES)
    .toString('base64url');
}
const DIGEST_CHARS = operationDigest('', null).length;

export async function signPlan(key: Pick<SigningKey, 'kid' | 'privateKey'>, plan: PlanClaims, at: Date): Promise<string> {
  const now = Math.floor(at.getTime() / 1000);
  const seq = plan.operations.map((o) => operationDigest(o.binding, o.input)).join('');
  return new SignJWT({ org: plan.org, script: scriptHash(plan.source), ops: operationsHash(plan.operations), n: plan.operations.length, seq })
    .setProtectedHeader({ alg: 'ES256', typ: 'plan+jwt', kid: key.kid })
    .setSubject(plan.user)
    .setIssuedAt(now)
    .setExpirationTime(now + PLAN_TTL_SECONDS)
    .sign(key.privateKey);
}

/**
 * The plan a token carries, once its signature, age, organization and planner check out (400 invalid_input
 * otherwise); a script other than the planned one is 409 conflict.
 */
export async function verifyPlan(
  keys: Pick<SigningKeys, 'find'>,
  planToken: string,
  expected: Omit<PlanClaims, 'operations'>,
  at: Date,
): Promise<VerifiedPlan> {
  let kid: string | undefined;
  try {
    kid = decodeProtectedHeader(planToken).kid;
  } catch {
    throw planTokenInvalid('malformed');
  }
  const key = kid ? await keys.find(kid) : undefined;
  if (!key) throw planTokenInvalid('unknownKey');
  let payload;
  try {
    ({ payload } = await jwtVerify(planToken, key.publicKey, { algorithms: ['ES256'], typ: 'plan+jwt', currentDate: at }));
  } catch {
    throw planTokenInvalid('expired');
  }
  if (payload.org !== expected.org || payload.sub !== expected.user) throw planTokenInvalid('foreign');
  if (payload.script !== scriptHash(expected.source)) {
    throw scriptNotPlanned();
  }
  return { ops: payload.ops as string, n: payload.n as number, seq: typeof payload.seq === 'string' ? payload.seq : '' };
}

/** Whether this write is the plan's write at its position. */
export function isPlannedWrite(plan: VerifiedPlan, index: number, binding: string, input: unknown): boolean {
  return plan.seq.slice(index * DIGEST_CHARS, (index + 1) * DIGEST_CHARS) === operationDigest(binding, input);
}

/** Whether the writes made, all of them in order, are exactly the planned ones. */
export function matchesPlan(plan: VerifiedPlan, operations: readonly PlannedOperation[]): boolean {
  return operations.length === plan.n && operationsHash(operations) === plan.ops;
}
