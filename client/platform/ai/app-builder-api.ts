import {
  type AiEdit,
  aiEditsSchema,
  type AppDefinition,
  appDefinitionSchema,
} from '@pipit/app-definition';
import { type AiBlueprintLine, aiBlueprintLineSchema, aiEditResponseSchema } from '@pipit/protocol';
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
      const line = aiBlueprintLineSchema.safeParse(JSON.parse(text));
      if (!line.success) throw unreadable();
      if (line.data.type === 'progress') onProgress(line.data);
      else if (line.data.type === 'done') return appDefinitionSchema.parse(line.data.definition);
      else {
        throw new ApiRequestError(200, {
          code: line.data.error.code as ApiRequestError['code'],
          message: line.data.error.message,
        });
      }
    }
    if (done) throw unreadable();
  }
}

function unreadable() {
  return new ApiRequestError(502, {
    code: 'ai_provider_failed',
    message: 'The answer stopped before the app was ready. Try again.',
  });
}

export interface ProposedChange {
  operations: AiEdit[];
  summary: string[];
}

/** Asks AI for a change to an app this person edits: typed operations and their summary. */
export async function proposeChange(appId: string, instruction: string): Promise<ProposedChange> {
  const answer = await apiSend(
    'POST',
    '/api/ai/edits',
    { appId, instruction },
    aiEditResponseSchema,
  );
  return {
    operations: aiEditsSchema.parse({ operations: answer.operations }).operations,
    summary: answer.summary,
  };
}
