import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import {
  HUMAN_CHECK_CHALLENGE_PATH,
  HUMAN_CHECK_HEADER,
  HUMAN_CHECK_METHOD_HEADER,
  HUMAN_CHECK_PATH_HEADER,
} from '@pipit/protocol';

/** Solves a real challenge for one request, as the browser's challenge script does. */
export async function solveHumanCheck(
  baseUrl: string,
  path: string,
  method: string,
): Promise<Record<string, string>> {
  const response = await fetch(
    `${baseUrl}${HUMAN_CHECK_CHALLENGE_PATH}?path=${encodeURIComponent(path)}&method=${method}`,
  );
  if (!response.ok) throw new Error(`challenge: ${response.status} ${await response.text()}`);
  const challenge = (await response.json()) as Parameters<typeof solveChallenge>[0]['challenge'];
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('could not solve the challenge');
  return {
    [HUMAN_CHECK_HEADER]: Buffer.from(JSON.stringify({ challenge, solution })).toString('base64'),
    [HUMAN_CHECK_PATH_HEADER]: path,
    [HUMAN_CHECK_METHOD_HEADER]: method,
  };
}

export interface ApiResponse<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

/**
 * A browser-like API client for tests: same-origin headers, JSON bodies, and a cookie jar for the
 * session cookie. `humanCheck: true` solves a real challenge first.
 */
export class ApiClient {
  cookie: string | null = null;

  constructor(readonly baseUrl: string) {}

  async request<T = Record<string, unknown>>(
    method: string,
    path: string,
    options: { body?: unknown; humanCheck?: boolean; headers?: Record<string, string> } = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = {
      Origin: this.baseUrl,
      'Sec-Fetch-Site': 'same-origin',
      ...(options.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...(this.cookie ? { Cookie: this.cookie } : {}),
      ...(options.humanCheck ? await solveHumanCheck(this.baseUrl, path, method) : {}),
      ...options.headers,
    };
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    });
    const setCookie = response.headers.get('set-cookie');
    if (setCookie) {
      const [pair = ''] = setCookie.split(';');
      this.cookie = /=$/.test(pair) || /Max-Age=0/.test(setCookie) ? null : pair;
    }
    const text = await response.text();
    return {
      status: response.status,
      body: (text ? JSON.parse(text) : {}) as T,
      headers: response.headers,
    };
  }

  get<T = Record<string, unknown>>(path: string) {
    return this.request<T>('GET', path);
  }
  post<T = Record<string, unknown>>(path: string, body?: unknown, humanCheck = false) {
    return this.request<T>('POST', path, { body, humanCheck });
  }
}

/** The signed-in person's account id, from their session. */
export async function accountIdOf(client: ApiClient): Promise<string> {
  const me = await client.get<{ account: { id: string } }>('/api/auth/session');
  return me.body.account.id;
}

export function errorCode(response: ApiResponse): string | undefined {
  return (response.body as { error?: { code?: string } }).error?.code;
}
