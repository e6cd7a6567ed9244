// The chokepoint: scope and membership checks, input validation with the failing path, output validation.
import t from 'tap';
import * as v from 'valibot';
import { startTestApp } from '../helpers/app.ts';
import { invoke } from '../../runtime-api/invoke.ts';
import { defineBinding } from '../../runtime-api/define.ts';
import { context } from '../../runtime-api/bindings/context/context.ts';
import { callerFromToken } from '../../server/auth/token-caller.ts';
import { invokeDeps } from '../../server/deps.ts';
import { ServiceError } from '../../runtime-api/errors.ts';

t.test('invoke', async (t) => {
  const app = await startTestApp(t);
  const deps = invokeDeps(app.deps);
  const tokenFor = async (email: string, scopes: string[], role?: 'member' | 'admin' | 'owner', org?: string) =>
    (await callerFromToken(app.deps, await app.token({ email, scopes, role, org }), 'en-US')).caller;

  t.test('context returns the organization, role, effective scopes and limits', async (t) => {
    const caller = await tokenFor('ctx@example.com', ['files:read', 'org:read']);
    const out = await invoke(context, {}, caller, deps);
    t.match(out, {
      organization: { slug: 'org-ctx' },
      user: { email: 'ctx@example.com' },
      role: 'owner',
      scopes: ['files:read', 'org:read'],
      limits: { storageQuotaBytes: 10 * 1024 ** 3, uploadPartBytes: 8388608, trashRetentionDays: 30 },
    });
  });

  t.test('effective scopes are capped by role and by the organization ceiling', async (t) => {
    await tokenFor('owner2@example.com', ['org:admin'], undefined, 'org-cap');
    const member = await tokenFor('mem2@example.com', ['files:read', 'org:admin'], 'member', 'org-cap');
    t.same(member.scopes, ['files:read'], 'a member never holds org:admin');
    const [org] = await app.deps.sql`select id from organizations where slug = 'org-cap'`;
    await app.deps.sql`update org_mcp_access set max_scopes = array['org:read'] where org_id = ${org.id}`;
    const capped = await tokenFor('owner2@example.com', ['files:read', 'org:read'], undefined, 'org-cap');
    t.same(capped.scopes, ['org:read']);
  });

  const guarded = defineBinding({
    name: 'test_guarded',
    summary: 'test',
    scope: 'files:write',
    writes: true,
    input: v.strictObject({ limit: v.pipe(v.number(), v.integer(), v.maxValue(100)), nested: v.optional(v.object({ name: v.string() })) }),
    output: v.object({ ok: v.boolean() }),
    async handler(input) {
      return { ok: input.limit >= 0 };
    },
  });

  t.test('a missing scope is INSUFFICIENT_SCOPE naming the scope', async (t) => {
    const caller = await tokenFor('ro@example.com', ['files:read']);
    const err = (await invoke(guarded, { limit: 1 }, caller, deps).catch((e) => e)) as ServiceError;
    t.equal(err.code, 'INSUFFICIENT_SCOPE');
    t.equal(err.status, 403);
    t.match(err.resolution, /files:write/);
  });

  t.test('invalid input is invalid_input with the failing path', async (t) => {
    const caller = await tokenFor('rw@example.com', ['files:write']);
    const tooBig = (await invoke(guarded, { limit: 1e9 }, caller, deps).catch((e) => e)) as ServiceError;
    t.equal(tooBig.code, 'invalid_input');
    t.match(tooBig.resolution, /^`limit`:/);
    const nested = (await invoke(guarded, { limit: 1, nested: { name: 5 } }, caller, deps).catch((e) => e)) as ServiceError;
    t.match(nested.resolution, /^`nested\.name`:/);
    const unknown = (await invoke(guarded, { limit: 1, extra: true }, caller, deps).catch((e) => e)) as ServiceError;
    t.equal(unknown.code, 'invalid_input');
    t.equal(unknown.resolution, '`extra`: not a field of this input (its fields: `limit`, `nested`); remove it.', 'plain words, not "Expected never"');
  });

  t.test("every problem is listed with its path, in plain words, in the caller's language", async (t) => {
    const caller = await tokenFor('rw@example.com', ['files:write']);
    const all = (await invoke(guarded, { limit: 2.5, nested: { name: 5 }, path: 'x' }, caller, deps).catch((e) => e)) as ServiceError;
    t.equal(
      all.resolutionFor('en-US'),
      '`path`: not a field of this input (its fields: `limit`, `nested`); remove it; `limit`: must be a whole number (got 2.5); `nested.name`: must be a string (got 5).',
    );
    const missing = (await invoke(guarded, { limit: 500 }, caller, deps).catch((e) => e)) as ServiceError;
    t.equal(missing.resolutionFor('en-US'), '`limit`: must be at most 100 (got 500).');
    const pt = (await invoke(guarded, { nested: {} }, { ...caller, locale: 'pt-BR' }, deps).catch((e) => e)) as ServiceError;
    t.equal(pt.resolutionFor('pt-BR'), '`limit`: obrigatório; `nested.name`: obrigatório.');
    t.notMatch(all.resolution, /Expected|Invalid type|Invalid key/);
    t.same(await invoke(guarded, { limit: 5 }, caller, deps), { ok: true });
  });

  t.test('an invalid handler result is an internal error, never leaked', async (t) => {
    const broken = defineBinding({
      name: 'test_broken',
      summary: 'test',
      scope: null,
      writes: false,
      input: v.object({}),
      output: v.object({ n: v.number() }),
      async handler() {
        return { n: 'secret' as unknown as number };
      },
    });
    const caller = await tokenFor('rw@example.com', ['files:read']);
    const err = (await invoke(broken, {}, caller, deps).catch((e) => e)) as ServiceError;
    t.equal(err.code, 'internal_error');
    t.notMatch(JSON.stringify(err.toBody()), /secret/);
  });

  t.test('a database error becomes database_failure', async (t) => {
    const failing = defineBinding({
      name: 'test_db',
      summary: 'test',
      scope: null,
      writes: false,
      input: v.object({}),
      output: v.object({}),
      async handler(_i, { sql }) {
        await sql`select * from no_such_table`;
        return {};
      },
    });
    const caller = await tokenFor('rw@example.com', ['files:read']);
    const err = (await invoke(failing, {}, caller, deps).catch((e) => e)) as ServiceError;
    t.equal(err.code, 'database_failure');
    t.equal(err.status, 500);
  });
});
