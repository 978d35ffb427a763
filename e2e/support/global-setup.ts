import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { assertChromium } from './browser';
import { CLIENT_DIR } from '@pipit/sync-server/testing';

/**
 * Browser tests run against the production build of the client. `npm test` builds it first; this
 * refuses to run against a missing build rather than skip.
 */
export default function setup(): void {
  assertChromium();
  const index = path.join(CLIENT_DIR, 'index.html');
  if (!existsSync(index) || !existsSync(path.join(CLIENT_DIR, 'sw.js'))) {
    throw new Error(`The client is not built (${index} is missing). Run "npm run build" first.`);
  }
  const age = Date.now() - statSync(index).mtimeMs;
  if (age > 24 * 60 * 60 * 1000) {
    console.warn(`Note: the client build in ${CLIENT_DIR} is over a day old.`);
  }
}
