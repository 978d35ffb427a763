import {
  AI_NOT_CONFIGURED_MESSAGE,
  AI_PROVIDER_FAILURE_MESSAGES,
  type AiProviderFailure,
} from '@pipit/protocol';
import { ServiceError } from '../service-error';

/*
 * Each way a request to the provider fails has one message (docs/product/ai.md, "Errors"); the
 * words live in @pipit/protocol so /docs/ai-actions quotes them as they are.
 */
export type ProviderFailure = AiProviderFailure;
export const PROVIDER_FAILURE_MESSAGES = AI_PROVIDER_FAILURE_MESSAGES;

/**
 * `ai_provider_failed`, knowing how (`kind`) and whether the provider had been asked for this run
 * by then: a failed run's quota depends on both (`failedRunCounts` in runs.ts). The error body
 * holds only the code and the message.
 */
export class ProviderFailedError extends ServiceError {
  constructor(
    readonly kind: ProviderFailure,
    readonly providerAsked: boolean,
  ) {
    super('ai_provider_failed', PROVIDER_FAILURE_MESSAGES[kind]);
  }
}

export function providerFailed(kind: ProviderFailure, providerAsked = true): ProviderFailedError {
  return new ProviderFailedError(kind, providerAsked);
}

export { AI_NOT_CONFIGURED_MESSAGE };

export function aiNotConfigured(): ServiceError {
  return new ServiceError('ai_not_configured', AI_NOT_CONFIGURED_MESSAGE);
}
