import { type AppDefinition, parseKnownDefinition } from '@pipit/app-definition';
import {
  type AiEditRequest,
  suggestionListSchema,
  suggestionSchema,
  type SuggestionSummary,
  suggestionWithDefinitionsSchema,
} from '@pipit/protocol';
import { z } from 'zod';
import { apiGet, apiSend } from '../api/request';
import { cutSummary, sentConversation } from './app-builder-api';

/*
 * Ask AI's suggestions kept on the server for review by any editor
 * (docs/product/ai-builder.md#suggestions-kept-for-review).
 */

const base = (appId: string) => `/api/apps/${encodeURIComponent(appId)}/suggestions`;
const answerSchema = z.object({ suggestion: suggestionSchema });

/** Keeps a suggestion this device got, so collaborators can review it; sending it twice is fine. */
export async function keepSuggestion(
  appId: string,
  suggestion: {
    id: string;
    asked: string;
    summary: string[];
    earlier: NonNullable<AiEditRequest['earlier']>;
    base: AppDefinition;
    proposed: AppDefinition;
  },
): Promise<SuggestionSummary> {
  const body = {
    ...suggestion,
    summary: cutSummary(suggestion.summary),
    earlier: sentConversation(suggestion.earlier),
  };
  return (await apiSend('POST', base(appId), body, answerSchema)).suggestion;
}

/** The app's suggestions waiting for review, newest first. */
export async function openSuggestions(appId: string): Promise<SuggestionSummary[]> {
  return (await apiGet(base(appId), suggestionListSchema)).suggestions;
}

/** One suggestion with the app as it was and as it would be, ready to review. */
export async function loadSuggestion(appId: string, id: string) {
  const answer = await apiGet(
    `${base(appId)}/${encodeURIComponent(id)}`,
    suggestionWithDefinitionsSchema,
  );
  const read = (value: unknown) => {
    const parsed = parseKnownDefinition(value);
    if (!parsed.success) {
      throw new Error(
        'This suggestion could not be read by this version of Pipit. Reload the page.',
      );
    }
    return parsed.data;
  };
  return {
    summary: answer.suggestion,
    earlier: answer.earlier,
    base: read(answer.base),
    proposed: read(answer.proposed),
  };
}

/** What became of a suggestion: taken in (in part or whole), turned down, or replaced. */
export async function closeSuggestion(
  appId: string,
  id: string,
  outcome: 'accepted' | 'rejected' | 'replaced',
): Promise<SuggestionSummary> {
  return (
    await apiSend(
      'POST',
      `${base(appId)}/${encodeURIComponent(id)}/close`,
      { outcome },
      answerSchema,
    )
  ).suggestion;
}
