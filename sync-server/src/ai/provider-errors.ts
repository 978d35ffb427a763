import { ServiceError } from '../service-error';

/** How a request to the AI provider failed; each has one message in the product's voice. */
export type ProviderFailure =
  | 'timeout'
  | 'unreachable'
  | 'busy'
  | 'unavailable'
  | 'settings'
  | 'refused'
  | 'empty'
  | 'malformed'
  | 'cancelled';

const TELL_OPERATOR = 'If it keeps happening, tell the people who run this server.';

/** Messages people read (docs/product/ai.md, "Errors"). None names the provider's address or key. */
export const PROVIDER_FAILURE_MESSAGES: Record<ProviderFailure, string> = {
  timeout: 'The AI took too long to answer. Try again in a moment.',
  unreachable: `This server can’t reach its AI right now. Try again later. ${TELL_OPERATOR}`,
  busy: 'The AI is busy right now. Wait a minute and try again.',
  unavailable: `The AI failed to answer. Try again in a moment. ${TELL_OPERATOR}`,
  settings:
    'AI can’t run because this server’s AI settings are wrong. Tell the people who run this server.',
  refused: `The AI refused this request. ${TELL_OPERATOR}`,
  empty: 'The AI sent an empty answer. Try again.',
  malformed: 'The AI sent an answer that couldn’t be read. Try again.',
  cancelled: 'The run was stopped before the AI answered. Try again.',
};

export function providerFailed(kind: ProviderFailure): ServiceError {
  return new ServiceError('ai_provider_failed', PROVIDER_FAILURE_MESSAGES[kind]);
}

export const AI_NOT_CONFIGURED_MESSAGE = 'AI is not configured on this server';

export function aiNotConfigured(): ServiceError {
  return new ServiceError('ai_not_configured', AI_NOT_CONFIGURED_MESSAGE);
}
