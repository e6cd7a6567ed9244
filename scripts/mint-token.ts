// npm run mint-token -- --email a@example.com --org acme --scopes "files:read files:write" [--role member] [--ttl 3600]
// Prints an access token for development, tests and benchmarks (against this DATA_DIR or DATABASE_URL).
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/config.ts';
import { bootstrap } from '../server/bootstrap.ts';
import { createLogger } from '../server/logger.ts';
import { mintToken } from '../runtime-api/identity/mint-token.ts';
import { tokenSettings } from '../server/auth/token-caller.ts';
import { ROLES, SCOPES, type Role } from '../runtime-api/identity/scopes.ts';

const { values } = parseArgs({
  options: {
    email: { type: 'string' },
    org: { type: 'string' },
    scopes: { type: 'string', default: SCOPES.join(' ') },
    role: { type: 'string' },
    ttl: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});
if (!values.email || !values.org) {
  process.stderr.write(
    'usage: npm run mint-token -- --email <e-mail> --org <slug> [--scopes "files:read files:write"] [--role member|admin|owner] [--ttl seconds] [--json]\n',
  );
  process.exit(2);
}
if (values.role && !(ROLES as readonly string[]).includes(values.role)) {
  process.stderr.write(`--role must be one of ${ROLES.join(', ')}\n`);
  process.exit(2);
}
const config = loadConfig();
const running = await bootstrap(config, { logger: createLogger('warn'), engine: false });
try {
  const minted = await mintToken(running.deps.sql, running.deps.keys, tokenSettings(running.deps), running.deps.clock, {
    email: values.email,
    org: values.org,
    scopes: values.scopes!.split(/[\s,]+/).filter(Boolean),
    role: values.role as Role | undefined,
    ttlSeconds: values.ttl ? Number(values.ttl) : undefined,
  });
  process.stdout.write(values.json ? JSON.stringify(minted) + '\n' : minted.token + '\n');
} finally {
  await running.close();
}
