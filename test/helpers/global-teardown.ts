// tap `after`: stop the run's PostgreSQL unless another run still uses it.
import { teardownRun } from './test-postgres.ts';

await teardownRun(String(process.ppid));
