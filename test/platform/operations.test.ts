// Operating the service: /metrics scraped with real traffic (names, types, values that move), where /metrics is
// served and refused, /health/live and /health/ready (each check), and an instance that drains: readiness 503 at
// once, new executions and part uploads refused with 503 draining and Retry-After, reads still served.
import t from 'tap';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { http } from '../helpers/http.ts';
import { sample, scrape, typeOf } from '../helpers/metrics.ts';
import { callerFor } from '../helpers/callers.ts';
import { uploadFile, putPart, download, bytes } from '../files/transfer-helpers.ts';
import { invoke } from '../../runtime-api/invoke.ts';
import { invokeDeps } from '../../server/deps.ts';
import { upload_begin } from '../../runtime-api/bindings/uploads/upload_begin.ts';

const METRICS_TOKEN = 'metrics-secret-0123456789';

const mcp = (app: TestApp, token: string, script: string, locale = 'en-US') =>
  http(`${app.url}/v1/mcp`, {
    token,
    headers: { 'x-service-locale': locale },
    json: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'execute', arguments: { script } } },
  });

t.test('metrics, health and drain', async (t) => {
  const app = await startTestApp(t, { env: { METRICS_TOKEN, METRICS_ORG_LABELS: '1', RATE_LIMIT_MAX: '25' } });
  const alice = await callerFor(app, { email: 'ops-alice@example.com', org: 'ops-a' });
  const bob = await callerFor(app, { email: 'ops-bob@example.com', org: 'ops-b' });

  t.test('/metrics needs its bearer secret; without METRICS_TOKEN it is not served on the main port', async (t) => {
    const none = await http(`${app.url}/metrics`);
    t.equal(none.status, 401);
    t.equal(none.body.error.code, 'unauthorized');
    t.match(none.headers['www-authenticate'], /Bearer/);
    const wrong = await http(`${app.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}x` } });
    t.equal(wrong.status, 401);
    const ok = await http(`${app.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    t.equal(ok.status, 200);
    t.match(ok.headers['content-type'], /^text\/plain; version=0\.0\.4/);
    const plain = await startTestApp(t);
    t.equal((await http(`${plain.url}/metrics`)).status, 404, 'off by default');
    await plain.close();
  });

  t.test('real traffic moves the counters and histograms', async (t) => {
    const before = await scrape(app);
    for (let i = 0; i < 3; i++) t.equal((await http(`${app.url}/api`)).status, 200);
    t.equal((await mcp(app, alice.token, 'return 6 * 7;')).body.result.structuredContent.ok, true);
    t.equal((await mcp(app, alice.token, 'throw new Error("boom");')).body.result.structuredContent.ok, false);
    t.equal((await mcp(app, bob.token, 'return 1;')).body.result.structuredContent.ok, true);
    const data = bytes(300_000);
    const file = await uploadFile(app, alice, 'metrics.bin', data);
    t.equal((await download(app, alice.token, file.fileId)).status, 200);
    // A token over its rate limit.
    let refused = 0;
    for (let i = 0; i < 27; i++) if ((await http(`${app.url}/api`, { token: 'not-a-real-token-but-a-key' })).status === 429) refused++;
    t.ok(refused >= 1, 'the limit refused some requests');
    const after = await scrape(app);
    const moved = (name: string, labels: Record<string, string> = {}) => sample(after, name, labels) - sample(before, name, labels);

    t.equal(typeOf(after, 'siglata_http_requests_total'), 'counter');
    t.equal(typeOf(after, 'siglata_http_request_duration_seconds'), 'histogram');
    t.equal(moved('siglata_http_requests_total', { route: '/api', method: 'GET', status: '200' }), 3);
    t.equal(moved('siglata_http_requests_total', { route: '/api', method: 'GET', status: '401' }), 27 - refused, 'refused before routing, still by template');
    t.equal(moved('siglata_http_requests_total', { route: '/api', method: 'GET', status: '429' }), refused);
    t.equal(
      moved('siglata_http_requests_total', { route: '/v1/mcp/uploads/:uploadId/parts/:partNumber', method: 'PUT', status: '200' }),
      1,
      'by route template, not path',
    );
    t.ok(moved('siglata_http_request_duration_seconds_count', { route: '/v1/mcp', method: 'POST' }) >= 3);
    t.notMatch(after, /route="\/v1\/mcp\/files\/fil/, 'no raw paths as labels');

    t.equal(typeOf(after, 'siglata_executions_total'), 'counter');
    t.equal(moved('siglata_executions_total', { outcome: 'ok', error_type: '' }), 2);
    t.equal(moved('siglata_executions_total', { outcome: 'error', error_type: 'script_error' }), 1);
    for (const h of ['siglata_execution_wall_seconds', 'siglata_execution_cpu_seconds', 'siglata_execution_queue_seconds']) {
      t.equal(typeOf(after, h), 'histogram', h);
      t.equal(moved(`${h}_count`), 3, `${h} observed every execution`);
    }
    t.ok(moved('siglata_execution_wall_seconds_sum') > 0);
    t.equal(moved('siglata_org_executions_total', { org: alice.membership!.orgId }), 2, 'the first organization gets its own label');
    t.equal(moved('siglata_org_executions_total', { org: 'other' }), 1, 'beyond METRICS_ORG_LABELS: other');
    t.notMatch(after, new RegExp(`org="${bob.membership!.orgId}"`));

    t.equal(moved('siglata_transfer_bytes_total', { direction: 'upload' }), data.length);
    t.equal(moved('siglata_transfer_bytes_total', { direction: 'download' }), data.length);
    t.equal(moved('siglata_upload_part_duration_seconds_count', { status: '200' }), 1);
    t.equal(moved('siglata_rate_limit_refusals_total'), refused);

    t.equal(typeOf(after, 'siglata_engine_pool_size'), 'gauge');
    t.ok(sample(after, 'siglata_engine_pool_size') >= 1);
    t.ok(sample(after, 'siglata_engine_slots', { state: 'ready' }) + sample(after, 'siglata_engine_slots', { state: 'starting' }) >= 1);
    t.equal(moved('siglata_engine_executions'), 3, 'engine.stats() fields are exported as they are');
    t.equal(sample(after, 'siglata_db_pool_max'), app.config.databasePoolMax);
    t.ok(sample(after, 'siglata_db_connections', { state: 'idle' }) + sample(after, 'siglata_db_connections', { state: 'active' }) >= 1);
    t.equal(typeOf(after, 'siglata_audit_log_queue'), 'gauge');
    t.ok(sample(after, 'siglata_process_resident_memory_bytes') > 0, 'process metrics');
  });

  t.test('/health/live and /health/ready: unauthenticated, each check reported', async (t) => {
    const live = await http(`${app.url}/health/live`);
    t.equal(live.status, 200);
    t.same(live.body, { status: 'ok' });
    const ready = await http(`${app.url}/health/ready`);
    t.equal(ready.status, 200);
    t.same(ready.body, { status: 'ready', checks: { database: 'ok', migrations: 'ok', engine: 'ok', draining: false } });
    // A migration not applied (as when a newer release starts against an older schema): not ready.
    const [last] = await app.deps.sql`select version, name from schema_migrations order by version desc limit 1`;
    await app.deps.sql`delete from schema_migrations where version = ${last.version}`;
    const pending = await http(`${app.url}/health/ready`);
    await app.deps.sql`insert into schema_migrations (version, name) values (${last.version}, ${last.name})`;
    t.equal(pending.status, 503);
    t.equal(pending.body.checks.migrations, 'failed');
    t.equal((await http(`${app.url}/health/ready`)).status, 200, 'ready again');
    const spec = (await http(`${app.url}/openapi.json`)).body;
    t.ok(spec.paths['/health/live']?.get && spec.paths['/health/ready']?.get, 'documented in OpenAPI');
    t.ok(spec.paths['/health/ready'].get.responses['503'], 'the 503 is documented');
    const api = await http(`${app.url}/api`);
    // The spec's four fields (2.2), plus `components` (which parts can answer, e.g. /ask's corpus) and nothing else.
    t.same(Object.keys(api.body).sort(), ['components', 'locale', 'service', 'status', 'user'], 'GET /api keeps its shape');
  });

  t.test('draining: readiness false at once, new executions and part uploads refused with 503 and Retry-After', async (t) => {
    const begun = await invoke(upload_begin, { name: 'late.bin', mediaType: 'application/octet-stream', size: 10 }, alice, invokeDeps(app.deps));
    const before = await scrape(app);
    app.deps.ops!.lifecycle.beginDrain();
    const ready = await http(`${app.url}/health/ready`);
    t.equal(ready.status, 503);
    t.equal(ready.body.checks.draining, true);
    t.equal((await http(`${app.url}/health/live`)).status, 200, 'still alive');

    const exec = await mcp(app, alice.token, 'return 1;');
    t.equal(exec.status, 503);
    t.equal(exec.body.error.code, 'draining');
    t.type(exec.body.error.resolution, 'string');
    t.equal(exec.headers['retry-after'], '5');
    const pt = await mcp(app, alice.token, 'return 1;', 'pt-BR');
    t.match(pt.body.error.message, /desligando/, 'localized');
    const app1 = await http(`${app.url}/app/v1/execute`, { token: alice.token, json: { script: 'return 1;', mode: 'run' } });
    t.equal(app1.status, 503, '/app/v1/execute refused too');
    t.equal(app1.body.error.code, 'draining');
    const part = await putPart(app, alice.token, begun.uploadId, 1, bytes(10));
    t.equal(part.status, 503);
    t.equal(part.headers['retry-after'], '5');
    t.equal(JSON.parse(part.body.toString()).error.code, 'draining');
    t.equal((await http(`${app.url}/api`)).status, 200, 'reads still served');
    t.match((await http(`${app.url}/api`)).headers.connection, /close/, 'keep-alive clients are told to move');
    const after = await scrape(app);
    t.equal(sample(after, 'siglata_drain_refusals_total') - sample(before, 'siglata_drain_refusals_total'), 4);
  });
});
