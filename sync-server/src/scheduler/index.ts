export { openScheduler, type SchedulerOptions } from './open-scheduler';
export { createSharedScheduler, type SharedScheduler } from './shared-scheduler';
export {
  JOB_KINDS,
  RetryLater,
  type Job,
  type JobHandler,
  type JobKind,
  type JobPayloads,
  type JobRequest,
  type RetryPolicy,
  type Scheduler,
  type WorkOptions,
} from './types';
