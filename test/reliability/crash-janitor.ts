// A janitor process for crash.test.ts: runs the real purgeExpiredTrash (advisory lock, batches and all) against
// DATABASE_URL and the blob directory BLOB_ROOT, with the clock at NOW_MS, so the test can SIGKILL it mid-purge.
// Its connections are named `crash-janitor` in pg_stat_activity.
import { connect } from '../../runtime-api/store/sql.ts';
import { fsBlobStore } from '../../runtime-api/blobs/fs.ts';
import { loadConfig } from '../../server/config.ts';
import { manualClock } from '../../runtime-api/clock.ts';
import { purgeExpiredTrash } from '../../runtime-api/services/janitors.ts';

const sql = connect(process.env.DATABASE_URL!, { max: 3, applicationName: 'crash-janitor' });
const config = loadConfig(process.env);
const clock = manualClock(new Date(Number(process.env.NOW_MS)));
const result = await purgeExpiredTrash({ sql, blobs: fsBlobStore(process.env.BLOB_ROOT!), clock, config });
process.stdout.write(`${JSON.stringify(result)}\n`);
await sql.end({ timeout: 2 });
