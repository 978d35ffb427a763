import { ConfigError, loadConfig } from './config';
import { runServer } from './run-server';

try {
  await runServer({ config: loadConfig() });
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
