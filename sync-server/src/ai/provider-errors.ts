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

export function providerFailed(kind: ProviderFailure): ServiceError {
  return new ServiceError('ai_provider_failed', PROVIDER_FAILURE_MESSAGES[kind]);
}

export { AI_NOT_CONFIGURED_MESSAGE };

export function aiNotConfigured(): ServiceError {
  return new ServiceError('ai_not_configured', AI_NOT_CONFIGURED_MESSAGE);
}
