/**
 * Runs browser specs against the real server on a throwaway PostgreSQL 15
 * server instead of the embedded database: `node --import tsx e2e/on-postgres.ts [spec...]`.
 * Used by `npm test` for the booking journey (defaults to e2e/booking.spec.ts).
 */
import { spawn } from 'node:child_process';
import { startPostgres } from '../server/test/pg.ts';

const specs = process.argv.slice(2);
const pg = await startPostgres();
if (!pg) {
  console.error('!!! SKIPPED: browser journey on PostgreSQL — no PostgreSQL binaries here (apt-get install postgresql).');
  process.exit(0);
}
let code = 1;
try {
  const url = await pg.createDatabase('e2e');
  code = await new Promise<number>((resolve) => {
    const child = spawn('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts', ...(specs.length ? specs : ['e2e/booking.spec.ts'])], {
      stdio: 'inherit',
      env: { ...process.env, E2E_DATABASE_URL: url, E2E_PORT: process.env.E2E_PG_PORT ?? '8791' },
    });
    child.on('close', (c) => resolve(c ?? 1));
  });
} finally {
  await pg.stop();
}
process.exit(code);
