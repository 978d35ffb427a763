import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../../src/http/api-error';
import { API_BODY_LIMIT_BYTES, readJsonBody } from '../../src/http/body';

const schema = z.object({ title: z.string().min(1, 'Give it a title.'), count: z.number().int() });

/** A request whose body arrives in chunks and declares no length, like a chunked upload. */
function chunked(parts: string[]): Request {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const part of parts) controller.enqueue(encoder.encode(part));
      controller.close();
    },
  });
  return new Request('http://x/api/thing', { method: 'POST', body, duplex: 'half' } as RequestInit);
}

async function errorOf(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected a product error');
}

describe('readJsonBody', () => {
  it('parses a valid body with the endpoint schema', async () => {
    expect(await readJsonBody(chunked(['{"title":"Ha', 'bits","count":3}']), schema)).toEqual({
      title: 'Habits',
      count: 3,
    });
  });

  it('refuses a chunked body once it passes the limit, without reading the rest', async () => {
    const chunk = 'x'.repeat(64 * 1024);
    const parts = ['{"title":"', ...Array.from({ length: 20 }, () => chunk), '","count":1}'];
    const error = await errorOf(readJsonBody(chunked(parts), schema));
    expect(error.code).toBe('payload_too_large');
    expect(API_BODY_LIMIT_BYTES).toBe(1024 * 1024);
  });

  it('refuses a declared length over the limit before reading', async () => {
    const request = new Request('http://x', {
      method: 'POST',
      body: '{}',
      headers: { 'content-length': String(API_BODY_LIMIT_BYTES + 1) },
    });
    expect((await errorOf(readJsonBody(request, schema))).code).toBe('payload_too_large');
  });

  it.each([
    ['', 'needs a JSON body'],
    ['{"title":', 'not valid JSON'],
  ])('answers validation_failed for %j', async (body, message) => {
    const error = await errorOf(readJsonBody(chunked(body ? [body] : []), schema));
    expect(error.code).toBe('validation_failed');
    expect(error.message).toContain(message);
  });

  it('names every field at fault', async () => {
    const error = await errorOf(readJsonBody(chunked(['{"title":"","count":1.5}']), schema));
    expect(error.code).toBe('validation_failed');
    expect(error.extra.fields).toEqual({
      title: 'Give it a title.',
      count: expect.stringMatching(/int/i) as string,
    });
  });
});
