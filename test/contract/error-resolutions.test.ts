// Every specific resolution a throw site gives reaches the caller in its locale: the source gives no resolution as a
// bare string literal (it gives `l10n(english, portuguese)`, or `tr(locale, …)` where the locale is at hand), and a
// real pt-BR request gets the Portuguese text both over HTTP and inside a script (hostError).
import t from 'tap';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ServiceError, conflict, l10n } from '../../runtime-api/errors.ts';
import { fromDatabaseError } from '../../runtime-api/store/errors.ts';
import { hostError } from '../../runtime-api/execution/execution-calls.ts';
import { startTestApp } from '../helpers/app.ts';
import { http } from '../helpers/http.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCANNED = ['runtime-api', 'server'];

async function sources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await sources(path)));
    else if (entry.name.endsWith('.ts')) out.push(path);
  }
  return out;
}

t.test('no throw site gives a resolution as a bare (English-only) string literal', async (t) => {
  const offenders: string[] = [];
  let scanned = 0;
  for (const dir of SCANNED) {
    for (const file of await sources(join(ROOT, dir))) {
      const rel = relative(ROOT, file);
      if (rel === join('runtime-api', 'errors.ts')) continue;
      scanned++;
      const lines = (await readFile(file, 'utf8')).split('\n');
      lines.forEach((line, i) => {
        if (/\bresolution:\s*['"`]/.test(line)) offenders.push(`${rel}:${i + 1}: ${line.trim()}`);
      });
    }
  }
  t.ok(scanned > 50, `scanned ${scanned} files`);
  t.same(offenders, [], 'give l10n(en, pt) (or tr(locale, en, pt)) instead');
});

t.test('a localized resolution: toBody, resolutionFor, err.resolution and hostError', async (t) => {
  const typed = new ServiceError('conflict', { resolution: l10n('Do it in English.', 'Faça em português.') });
  t.equal(typed.resolution, 'Do it in English.', 'err.resolution stays the en-US text');
  t.equal(typed.resolutionFor('pt-BR'), 'Faça em português.');
  t.same(hostError(typed, 'pt-BR'), {
    ok: false,
    error: { code: 'conflict', message: 'A requisição conflita com o estado atual.', resolution: 'Faça em português.' },
  });
  t.match(hostError(typed, 'en-US'), { ok: false, error: { resolution: 'Do it in English.' } });
  const shaped = new ServiceError('invalid_request', { resolution: l10n('Fix it.', 'Corrija.') });
  t.equal((shaped.toBody('pt-BR').error as { resolution: string }).resolution, 'Corrija.');
  t.equal((shaped.toBody().error as { resolution: string }).resolution, 'Fix it.', 'en-US is the default');
  const plain = new ServiceError('invalid_request', { resolution: 'Already localized.' });
  t.equal(plain.resolutionFor('pt-BR'), 'Already localized.', 'a plain string is kept as given');
  const internal = new ServiceError('internal_error', { resolution: l10n('secret', 'segredo') });
  t.same(internal.toBody('pt-BR'), { code: 'internal_error', message: 'Erro interno.' });
});

t.test('over real HTTP, pt-BR callers get the Portuguese specific resolution', async (t) => {
  const app = await startTestApp(t, { env: { RATE_LIMIT_MAX: '100000' } });
  const token = await app.token({ email: 'l10n@example.com' });
  const badJson = (headers: Record<string, string>) =>
    http(`${app.url}/app/v1/execute`, {
      method: 'POST',
      token,
      body: '{"script": ',
      headers: { 'content-type': 'application/json', ...headers },
    });

  const pt = await badJson({ 'x-service-locale': 'pt-BR' });
  t.equal(pt.status, 400);
  t.same(pt.body, { error: { code: 'invalid_request', message: 'A requisição está malformada.', resolution: 'O corpo não é JSON válido.' } });
  const en = await badJson({});
  t.equal(en.status, 400);
  t.equal(en.body.error.resolution, 'The body is not valid JSON.', 'en-US stays the default');

  // A binding's error as a script sees it (hostError), in the caller's locale.
  const script = 'try { await files_list({ cursor: "not-a-cursor" }); return null; } catch (e) { return { code: e.code, resolution: e.resolution }; }';
  const run = (headers: Record<string, string>) => http(`${app.url}/app/v1/execute`, { json: { script }, token, headers });
  const ptRun = await run({ 'x-service-locale': 'pt-BR' });
  t.equal(ptRun.status, 200);
  t.same(ptRun.body.result, {
    code: 'invalid_input',
    resolution: '`cursor`: não é um cursor devolvido por files_list; passe `nextCursor` sem alterações, ou omita-o para começar da primeira página.',
  });
  const enRun = await run({});
  t.same(enRun.body.result, {
    code: 'invalid_input',
    resolution: '`cursor`: not a cursor returned by files_list; pass `nextCursor` unchanged, or omit it to start from the first page.',
  });
});

t.test('every 409 conflict says its own reason and fix, in both languages (no bare conflict throw site)', async (t) => {
  const offenders: string[] = [];
  for (const dir of SCANNED) {
    for (const file of await sources(join(ROOT, dir))) {
      const rel = relative(ROOT, file);
      if (rel === join('runtime-api', 'errors.ts')) continue;
      (await readFile(file, 'utf8')).split('\n').forEach((line, i) => {
        if (/ServiceError\(\s*['"]conflict['"]/.test(line)) offenders.push(`${rel}:${i + 1}: ${line.trim()}`);
      });
    }
  }
  t.same(offenders, [], 'conflicts are built with conflict(reason, fix)');
  const e = conflict(l10n('Reason.', 'Motivo.'), l10n('Fix it.', 'Corrija.'));
  t.same(e.toBody('en-US'), { code: 'conflict', message: 'Reason. Fix it.' });
  t.same(e.toBody('pt-BR'), { code: 'conflict', message: 'Motivo. Corrija.' });
  t.match(hostError(e, 'pt-BR'), { ok: false, error: { resolution: 'Corrija.' } }, 'a script gets the fix on its own');
  // The database's own conflicts (unique violation, serialization failure) are told apart too.
  const unique = fromDatabaseError(Object.assign(new Error('dup'), { severity: 'ERROR', code: '23505' }))!;
  const race = fromDatabaseError(Object.assign(new Error('ser'), { severity: 'ERROR', code: '40001' }))!;
  t.not(unique.toBody('pt-BR').message, race.toBody('pt-BR').message);
  t.notMatch(String(unique.toBody().message), /conflicts with the current state/);
});
