// Every item of a list binding, for the few faces whose published shape is a bare array (spec 4.3's
// /auth/organization/list and list-invitations): they walk the binding's pages rather than the binding bending to them.
import * as v from 'valibot';
import type { Binding } from '../define.ts';
import type { Caller } from '../identity/caller.ts';
import { ServiceError } from '../errors.ts';
import { invoke, type InvokeDeps } from '../invoke.ts';
import type { Page } from '../list-page.ts';

export async function invokeWholeList(binding: Binding, input: Record<string, unknown>, caller: Caller, deps: InvokeDeps): Promise<unknown[]> {
  const items: unknown[] = [];
  let cursor: string | null = null;
  do {
    const page = (await invoke(binding, { ...input, cursor }, caller, deps)) as Page<unknown>;
    items.push(...page.items);
    // A page that hands back its own cursor would never end: a bug in the binding, not a long list.
    if (page.nextCursor !== null && (page.nextCursor === cursor || page.items.length === 0)) {
      throw new ServiceError('internal_error', { cause: new Error(`${binding.name} returned a cursor that does not advance`) });
    }
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}

/** The array schema of a list binding's items (for the description of a face that answers the whole list). */
export function listItemsSchema(binding: Binding): v.GenericSchema {
  return (binding.output as v.ObjectSchema<{ items: v.GenericSchema }, undefined>).entries.items;
}
