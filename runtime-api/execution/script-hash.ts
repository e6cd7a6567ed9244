// A script's identity: the audit log records it and a plan token binds the plan to it.
import { createHash } from 'node:crypto';

export function scriptHash(source: string): string {
  return createHash('sha256').update(source).digest('hex');
}
