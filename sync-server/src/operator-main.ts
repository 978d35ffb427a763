import { systemClock } from './accounts/clock';
import { createOperators } from './accounts/operators';
import { ConfigError, loadConfig } from './config';
import { runOperatorCommand } from './operator-command';
import { openStorage } from './storage/open-storage';

// `npm run operator -- add USERNAME`: the server's own settings and storage (DATA_DIR's SQLite
// file, or DATABASE_URL), so it changes exactly the database the server reads.
try {
  const storage = await openStorage(loadConfig());
  try {
    process.exitCode = await runOperatorCommand(process.argv.slice(2), {
      operators: createOperators({ storage, clock: systemClock }),
      output: console,
    });
  } finally {
    await storage.close();
  }
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exitCode = 1;
}
