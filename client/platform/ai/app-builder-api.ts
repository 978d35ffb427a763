import {
  type AiEdit,
  aiEditsSchema,
  type AppDefinition,
  appDefinitionSchema,
} from '@pipit/app-definition';
import {
  type AiBlueprintLine,
  aiBlueprintLineSchema,
  aiEditResponseSchema,
  type AiEditRequest,
  AI_REVISIONS_MAX,
  AI_SUMMARY_LINE_MAX_LENGTH,
  AI_SUMMARY_LINES_MAX,
  ERROR_CODES,
} from '@pipit/protocol';
import * as zm from 'zod/mini';
import { ApiRequestError, apiSend, apiSendStreaming } from '../api/request';

/*
 * Apps from a description and Ask AI, as the client calls them (docs/product/ai-builder.md):
 * `POST /api/ai/blueprints` (NDJSON progress, then the app) and `POST /api/ai/edits`.
 */

export type BlueprintProgress = Extract<AiBlueprintLine, { type: 'progress' }>;

/**
 * Asks the server to make an app from a description. `onProgress` gets the collections and
 * screens named so far; the answer is a definition that passed the server's publish check (parsed
 * again here). A failure is an ApiRequestError with the server's words (or OfflineError).
 */
export async function appFromDescription(
  description: string,
  onProgress: (progress: BlueprintProgress) => void,
  signal?: AbortSignal,
): Promise<AppDefinition> {
  const response = await apiSendStreaming('/api/ai/blueprints', { description }, { signal });
  if (!response.body) throw unreadable();
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (value) buffered += value;
    const lines = buffered.split('\n');
    buffered = done ? '' : (lines.pop() ?? '');
    for (const text of lines) {
      if (!text.trim()) continue;
      const json = jsonOrNull(text);
      if (json === null) throw cutOff();
      const line = aiBlueprintLineSchema.safeParse(json);
      if (!line.success) throw errorOf(json) ?? unreadable();
      if (line.data.type === 'progress') onProgress(line.data);
      else if (line.data.type === 'done') return appDefinitionSchema.parse(line.data.definition);
      else throw new ApiRequestError(200, line.data.error);
    }
    if (done) throw unreadable();
  }
}

/** A line as JSON; null for one that is not (cut off mid-line by a proxy or a dropped connection). */
function jsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** An error line whatever its code: a newer server may send one this client does not know. */
const anyErrorLineSchema = zm.object({
  type: zm.literal('error'),
  error: zm.object({ code: zm.string(), message: zm.string() }),
});

/**
 * An error line with a code this client does not know, with its words; null for anything else.
 * Pages and messages go by the codes of ERROR_CODES only: any other is `internal`.
 */
function errorOf(json: unknown): ApiRequestError | null {
  const line = anyErrorLineSchema.safeParse(json);
  if (!line.success) return null;
  const { code, message } = line.data.error;
  return new ApiRequestError(200, {
    code: ERROR_CODES.find((known) => known === code) ?? 'internal',
    message,
  });
}

function unreadable() {
  return new ApiRequestError(502, {
    code: 'ai_provider_failed',
    message: 'The answer stopped before the app was ready. Try again.',
  });
}

function cutOff() {
  return new ApiRequestError(502, {
    code: 'ai_provider_failed',
    message: 'The server’s answer was cut off. Try again.',
  });
}

/** Earlier turns as the request may carry them: summary lines cut to their length, at most. */
/** A suggestion's summary within what a request may carry: its first lines, each cut short. */
export function cutSummary(summary: readonly string[]): string[] {
  return summary
    .slice(0, AI_SUMMARY_LINES_MAX)
    .map((line) =>
      line.length > AI_SUMMARY_LINE_MAX_LENGTH
        ? `${line.slice(0, AI_SUMMARY_LINE_MAX_LENGTH - 1)}…`
        : line,
    );
}

/** The conversation so far within what a request may carry: its last turns, summaries cut. */
export function sentConversation(
  earlier: NonNullable<AiEditRequest['earlier']>,
): NonNullable<AiEditRequest['earlier']> {
  return earlier
    .slice(-AI_REVISIONS_MAX)
    .map(({ instruction, summary }) => ({ instruction, summary: cutSummary(summary) }));
}

export interface ProposedChange {
  operations: AiEdit[];
  summary: string[];
}

/**
 * Asks AI for a change to an app this person edits: typed operations and their summary. A revision
 * sends the conversation so far (`earlier`, oldest first).
 */
export async function proposeChange(
  appId: string,
  instruction: string,
  earlier: AiEditRequest['earlier'] = [],
): Promise<ProposedChange> {
  const answer = await apiSend(
    'POST',
    '/api/ai/edits',
    {
      appId,
      instruction,
      ...(earlier && earlier.length > 0 ? { earlier: sentConversation(earlier) } : {}),
    },
    aiEditResponseSchema,
  );
  return {
    operations: aiEditsSchema.parse({ operations: answer.operations }).operations,
    summary: answer.summary,
  };
}
