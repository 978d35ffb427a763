/*
 * The server's words for AI errors (docs/product/ai.md, "Errors"), here so that /docs/ai-actions
 * quotes exactly what the server answers: the server builds its errors from these, the page
 * renders them. Apart from ai.ts so that code which only runs AI actions does not load them.
 */

/** Runs of AI actions, descriptions and Ask AI requests one account may make per minute. */
export const AI_RUNS_PER_MINUTE = 30;

export const AI_NOT_CONFIGURED_MESSAGE = 'AI is not configured on this server';

/** `ai_output_invalid` for a run of an AI action. */
export const AI_OUTPUT_INVALID_MESSAGE =
  'The AI’s answer did not fit what this action needs, so nothing was saved. Try again.';

/** How a request to the AI provider failed; each has one message in the product's voice. */
export type AiProviderFailure =
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

/** `ai_provider_failed`, by what happened. None names the provider's address or key. */
export const AI_PROVIDER_FAILURE_MESSAGES: Record<AiProviderFailure, string> = {
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
