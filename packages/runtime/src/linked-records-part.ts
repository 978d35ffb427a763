import { lazyModule } from './lazy-module';

/*
 * The list of records that link to a record (relations), a part of its own (parts.ts says why),
 * in a module apart from parts.ts: the detail block that draws it is a part itself, loaded by
 * parts.ts, and would otherwise import the module that imports it.
 */
export const linkedRecordsModule = lazyModule(() => import('./blocks/linked-records'));
