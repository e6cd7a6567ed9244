// Walks the spec's error table (section 7) and checks each code's status and shape in our one table.
import t from 'tap';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { ERROR_TABLE, ServiceError, isErrorCode } from '../../runtime-api/errors.ts';

const SPEC = fileURLToPath(new URL('../../docs/spec.md', import.meta.url));
// The two shapes of spec section 7, assigned per design.md section 4.
const TYPED = new Set([
  'not_found',
  'conflict',
  'quota_exceeded',
  'upload_expired',
  'restore_expired',
  'upload_incomplete',
  'part_mismatch',
  'INVITATION_NOT_FOUND',
  'storage_failure',
  'database_failure',
]);

t.test('every spec error code is in the table with its status and shape', async (t) => {
  const spec = await readFile(SPEC, 'utf8');
  const section = spec.slice(spec.indexOf('### Error codes'), spec.indexOf('## 8.'));
  const rows = [...section.matchAll(/^\| `([A-Za-z_]+)` \| (\d{3}) \|/gm)].map((m) => ({ code: m[1], status: Number(m[2]) }));
  t.ok(rows.length >= 17, `found ${rows.length} codes in the spec`);
  for (const { code, status } of rows) {
    t.ok(isErrorCode(code), `${code} is in the table`);
    if (!isErrorCode(code)) continue;
    t.equal(ERROR_TABLE[code].status, status, `${code} → ${status}`);
    t.equal(ERROR_TABLE[code].shape, TYPED.has(code) ? 'typed' : 'resolution', `${code} shape`);
    const body = new ServiceError(code).toBody('pt-BR');
    if (TYPED.has(code)) t.same(Object.keys(body).sort(), ['code', 'message']);
    else t.same(Object.keys(body.error as object).sort(), ['code', 'message', 'resolution']);
  }
});

t.test('every code has both locales and a 5xx body hides the cause', async (t) => {
  for (const [code, row] of Object.entries(ERROR_TABLE)) {
    t.ok(row.message['en-US'] && row.message['pt-BR'] && row.resolution['en-US'] && row.resolution['pt-BR'], code);
  }
  const err = new ServiceError('database_failure', { message: 'relation "secret_table" does not exist', details: { sql: 'x' } });
  t.same(err.toBody(), { code: 'database_failure', message: 'The database failed.' });
});
