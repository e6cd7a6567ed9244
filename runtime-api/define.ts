// A binding is declared once: its wire name, summary, valibot schemas, scope, whether it writes, and handler.
// Everything else (sandbox globals, typings, MCP search, OpenAPI, /app/v1) is a projection of these declarations.
import type * as v from 'valibot';
import type { Sql } from 'postgres';
import type { Caller } from './identity/caller.ts';
import type { Scope } from './identity/scopes.ts';
import type { BlobStore } from './blobs/port.ts';
import type { Clock } from './clock.ts';
import type { RuntimeConfig } from './runtime-config.ts';

export type AnySchema = v.GenericSchema<any, any>;

/** What a handler gets. `sql` may be a transaction (plan/apply runs every binding of a script in one). */
export interface HandlerContext {
  sql: Sql;
  blobs: BlobStore;
  clock: Clock;
  caller: Caller;
  config: RuntimeConfig;
  /** Late-bound services (mailer, ...) that some bindings need; see runtime.ts. */
  services: RuntimeServices;
  /**
   * Fires when nobody waits for the answer any more (the script's execution ended: killed, timed out, or returned
   * with the call still in flight). Heavy handlers check it between steps and stop; invoke checks it around them.
   */
  signal?: AbortSignal;
  /**
   * Charges CPU time spent for this call off the server's event loop (a parser thread) to the calling execution
   * (its hostMs), which the server's own thread time would not show. Absent outside executions.
   */
  chargeHostMs?: (ms: number) => void;
}

export interface Mailer {
  send(message: { to: string; subject: string; text: string; html?: string }): Promise<void>;
}

export interface RuntimeServices {
  mailer: Mailer;
}

export interface BindingDef<I extends AnySchema, O extends AnySchema> {
  /** Wire name, snake_case, also the sandbox global and the file name. */
  name: string;
  /** One line for listings; the first sentence is shown in the compact index. */
  summary: string;
  /** Longer notes and examples for `search` detail and the typings. */
  description?: string;
  examples?: readonly string[];
  /** The words users say for it (verbs, nouns), so `search` finds it by intent ("move file to folder"). */
  aliases?: readonly string[];
  /**
   * The same in pt-BR: its summary and the words a Portuguese speaker says for it ("planilha", "lixeira"), so that
   * `search` finds it by them and answers a pt-BR caller in pt-BR. Every registered binding has it (test/mcp/search-words.test.ts).
   */
  pt?: { summary: string; aliases?: readonly string[] };
  input: I;
  output: O;
  /** The scope needed, or null for a binding any authenticated caller may use (e.g. `context`). */
  scope: Scope | null;
  /** Whether the binding changes state (plan mode records instead of performing it). */
  writes: boolean;
  /** Needs an organization selected (most do); false for user-level bindings such as `organization_create`. */
  needsOrganization?: boolean;
  /** Only a session caller may use it (e.g. raising the MCP ceiling): tokens never can. */
  sessionOnly?: boolean;
  /**
   * Acts for the person behind the credential, not for an organization (create an organization, answer one's own
   * invitations): a session, or an access token a person obtained by signing in that holds PERSONAL_TOKEN_SCOPE;
   * never an organization API key, which belongs to its organization rather than to anyone.
   */
  personal?: boolean;
  handler: (input: v.InferOutput<I>, ctx: HandlerContext) => Promise<v.InferInput<O>>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a list of bindings mixes schema types
export interface Binding<I extends AnySchema = any, O extends AnySchema = any> extends BindingDef<I, O> {
  needsOrganization: boolean;
  sessionOnly: boolean;
  personal: boolean;
}

/** What a token needs to call a `personal` binding: organizations are what it is about. */
export const PERSONAL_TOKEN_SCOPE: Scope = 'org:read';

/** The scope a token caller needs for `b` (null: none), as listings and `search` show it. */
export function tokenScopeOf(b: Binding): Scope | null {
  return b.scope ?? (b.personal ? PERSONAL_TOKEN_SCOPE : null);
}

export function defineBinding<I extends AnySchema, O extends AnySchema>(def: BindingDef<I, O>): Binding<I, O> {
  if (!/^[a-z][a-z0-9_]*$/.test(def.name)) throw new Error(`binding name ${def.name} is not snake_case`);
  return Object.freeze({ needsOrganization: true, sessionOnly: false, personal: false, ...def });
}
