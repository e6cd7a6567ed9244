// tap `before`: one PostgreSQL for the whole run, with a migrated template database.
import { setupRun } from './test-postgres.ts';

await setupRun(String(process.ppid));
