import { z } from 'zod';

export const STORAGE_ENGINES = ['sqlite', 'postgres'] as const;
export type StorageEngine = (typeof STORAGE_ENGINES)[number];

/** `GET /api/health` */
export const healthResponseSchema = z.object({
  status: z.literal('ok'),
  storage: z.enum(STORAGE_ENGINES),
  version: z.string().min(1),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;

/** Why `GET /api/ready` says the instance should get no traffic yet (or any more). */
export const NOT_READY_REASONS = [
  'storage_unreachable',
  'storage_timeout',
  'migrations_pending',
  'shutting_down',
  /** A part every request of some kind needs cannot work (the log names it): the human check. */
  'part_unavailable',
] as const;
export type NotReadyReason = (typeof NOT_READY_REASONS)[number];

/** `GET /api/ready`, 200: storage answers and every migration this version knows is applied. */
export const readyResponseSchema = z.object({
  status: z.literal('ready'),
  storage: z.enum(STORAGE_ENGINES),
  migrations: z.number().int().min(0),
});
export type ReadyResponse = z.infer<typeof readyResponseSchema>;

/** `GET /api/ready`, 503. */
export const notReadyResponseSchema = z.object({
  status: z.literal('not_ready'),
  reason: z.enum(NOT_READY_REASONS),
});
export type NotReadyResponse = z.infer<typeof notReadyResponseSchema>;
