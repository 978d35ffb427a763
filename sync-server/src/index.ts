export {
  createServer,
  type CreateServerOptions,
  type PipitServer,
  type CloseReport,
} from './create-server';
export { runServer } from './run-server';
export { loadConfig, type Config } from './config';
export { createLogger, type Logger } from './logger';
export { openStorage } from './storage/open-storage';
export type { Storage, UserRecord, NewUser } from './storage/types';
export type { DocumentAccess, DocumentRole } from './collab/access';
export { SYNC_PATH } from '@pipit/protocol';
export { VERSION } from './version';
