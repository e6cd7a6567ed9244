// A janitor process for the crash test: purges expired trash against DATABASE_URL and BLOB_ROOT with the clock set
// to NOW_MS, so the test can SIGKILL it mid-purge.
import { connect } from '../../runtime-api/store/sql.ts';
import { fsBlobStore } from '../../runtime-api/blobs/fs.ts';
import { loadConfig } from '../../server/config.ts';
import { purgeTrash } from '../../runtime-api/services/trash.ts';

const sql = connect(process.env.DATABASE_URL!, { max: 2 });
const config = loadConfig({}, { DATABASE_URL: process.env.DATABASE_URL });
const now = new Date(Number(process.env.NOW_MS));
process.send?.('ready');
// Small batches, so a kill lands between (or inside) transactions.
for (;;) {
  const purged = await purgeTrash({ sql, blobs: fsBlobStore(process.env.BLOB_ROOT!), clock: { now: () => now }, config } as never, now, 2);
  if (purged === 0) break;
}
process.send?.('done');
await sql.end();
