import { fakeBrowser } from '../../test-support/fake-browser';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiRequestError } from '../api/request';
import { appFromDescription } from './app-builder-api';

/*
 * Reading the blueprint stream (`application/x-ndjson`): a line that is not JSON (the answer cut
 * off mid-line) and an error line with a code this client does not know are product errors with
 * words to show, never a raw SyntaxError or a code the pages cannot read.
 */

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  fakeBrowser({ online: true });
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockReset();
});
afterEach(() => vi.unstubAllGlobals());

const stream = (...lines: string[]) =>
  new Response(lines.join('\n'), { headers: { 'Content-Type': 'application/x-ndjson' } });
const progress = JSON.stringify({ type: 'progress', collections: ['Recipes'], screens: [] });

async function failure(response: Response): Promise<ApiRequestError> {
  fetchMock.mockResolvedValue(response);
  const onProgress = vi.fn();
  const error: unknown = await appFromDescription('A recipe book', onProgress).catch((e) => e);
  expect(error).toBeInstanceOf(ApiRequestError);
  return error as ApiRequestError;
}

describe('appFromDescription', () => {
  it('says the answer was cut off when a line is not JSON', async () => {
    const error = await failure(stream(progress, '{"type":"done","definition":{"me'));
    expect(error.message).toBe('The server’s answer was cut off. Try again.');
  });

  it('keeps the code and words of an error line', async () => {
    const line = { type: 'error', error: { code: 'ai_output_invalid', message: 'No app.' } };
    const error = await failure(stream(progress, JSON.stringify(line)));
    expect([error.code, error.message]).toEqual(['ai_output_invalid', 'No app.']);
  });

  it('reads an error code it does not know as internal, with its words', async () => {
    const line = { type: 'error', error: { code: 'ai_brand_new', message: 'Something new.' } };
    const error = await failure(stream(JSON.stringify(line)));
    expect([error.code, error.message]).toEqual(['internal', 'Something new.']);
  });
});
