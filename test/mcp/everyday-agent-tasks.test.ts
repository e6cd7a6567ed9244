// Everyday agent tasks, each written from the `execute` and `search` tool descriptions alone by someone who never
// read this repository's source (fixtures/agent-tasks/tasks.json). Each runs as an agent sends it: the official MCP
// SDK client, one `execute` call, against a fresh organization in the state fixtures/agent-tasks/seed.md describes.
// A task passes when its script works on the first try and returns what its writer expected.
import t from 'tap';
import { readFile } from 'node:fs/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestApp } from '../helpers/app.ts';

interface AgentTask {
  id: string;
  task: string;
  script: string;
  expect: unknown;
  /** "exact" (default): the result equals `expect`; "subset": every field of `expect` is in the result. */
  compare?: 'exact' | 'subset';
}

const fixture = (name: string) => readFile(new URL(`../../fixtures/agent-tasks/${name}`, import.meta.url), 'utf8');

t.test('everyday agent tasks work on the first try', async (t) => {
  const { tasks } = JSON.parse(await fixture('tasks.json')) as { tasks: AgentTask[] };
  const seed = await fixture('seed.js');
  t.ok(tasks.length >= 20, `at least 20 tasks (${tasks.length})`);
  const app = await startTestApp(t, { env: { RATE_LIMIT_MAX: '100000' } });

  for (const [i, task] of tasks.entries()) {
    t.test(`${task.id}: ${task.task}`, async (t) => {
      const org = `acme-${i}`;
      const token = await app.token({ email: 'ana@acme.test', org });
      await app.token({ email: 'bruno@acme.test', org, role: 'admin' });
      await app.token({ email: 'carla@acme.test', org, role: 'member' });
      // Names as seed.md gives them (minting names an organization by its slug and a person by the e-mail's local part).
      const { sql } = app.deps;
      await sql`update organizations set name = 'Acme Research' where slug = ${org}`;
      for (const name of ['Ana', 'Bruno', 'Carla']) await sql`update users set name = ${name} where email = ${`${name.toLowerCase()}@acme.test`}`;
      const client = new Client({ name: 'everyday-agent', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/v1/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
      t.teardown(() => client.close());
      const seeded = await client.callTool({ name: 'execute', arguments: { script: seed } });
      t.match(seeded.structuredContent, { ok: true, result: 'seeded' }, 'the workspace is seeded');

      const answer = await client.callTool({ name: 'execute', arguments: { script: task.script } });
      const content = answer.structuredContent as { ok: boolean; result?: unknown; error?: unknown };
      t.equal(content.ok, true, `the script runs: ${JSON.stringify(content.error ?? null)}`);
      if (task.compare === 'subset') t.match(content.result, task.expect as object, 'its result holds what the task asked for');
      else t.same(content.result, task.expect, 'its result is what the task asked for');
    });
  }
});
