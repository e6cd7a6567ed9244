// Concurrent apply transactions per organization. Each apply holds a database connection for its script's whole
// run, so one organization holds at most APPLY_PER_ORG at once and its other applies wait their turn (in order,
// holding neither a connection nor an isolate): one organization's batch edits cannot take every connection.
export const APPLY_PER_ORG = 2;

const orgs = new Map<string, { running: number; waiting: (() => void)[] }>();

/** Resolves with a release function once this organization may open another apply transaction. */
export async function acquireApply(orgId: string): Promise<() => void> {
  let org = orgs.get(orgId);
  if (!org) orgs.set(orgId, (org = { running: 0, waiting: [] }));
  if (org.running >= APPLY_PER_ORG) await new Promise<void>((resolve) => org!.waiting.push(resolve));
  else org.running++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const next = org!.waiting.shift();
    if (next) return next(); // the slot passes straight to the next waiter
    org!.running--;
    if (org!.running === 0) orgs.delete(orgId);
  };
}
