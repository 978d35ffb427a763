import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/*
 * A local stand-in for an AI provider: a real HTTP server speaking OpenAI's Chat Completions wire
 * protocol (JSON answers, and SSE streaming with `data: {…}` chunks, usage in the last chunk when
 * `stream_options.include_usage`, then `data: [DONE]`). The server's production client (`openai`)
 * talks to it exactly as it would to Ollama, vLLM or OpenAI. Answers are scripted; every request is
 * recorded with its body and headers for assertions.
 */

export interface StandInRequest {
  method: string;
  /** e.g. `/v1/chat/completions` */
  path: string;
  /** Lower-cased names, as Node gives them. */
  headers: Record<string, string>;
  /** The parsed JSON body (undefined for a GET or a body that is not JSON). */
  body: StandInChatBody;
  /** The raw body text. */
  raw: string;
  /** Whether the connection closed before the whole answer was sent (the client gave up). */
  abandoned: boolean;
}

/** The parts of a Chat Completions request tests look at. */
export interface StandInChatBody {
  model?: string;
  messages?: Array<{ role: string; content: string }>;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  response_format?: {
    type: string;
    json_schema?: { name: string; schema: Record<string, unknown>; strict?: boolean };
  };
  [key: string]: unknown;
}

export type StandInAnswer =
  /** The answer's text (the assistant message's content). */
  | string
  | {
      content: string;
      /** Wait this long before answering (before the first chunk when streaming). */
      delayMs?: number;
      /** Default: a word count of the messages and of the answer. */
      usage?: { prompt_tokens: number; completion_tokens: number } | null;
      /** Characters per streamed chunk (default 8). */
      chunkSize?: number;
      /** Streaming only: cut the connection after this many chunks. */
      dropAfterChunks?: number;
      /**
       * Streaming only: after this many chunks send nothing more, and keep the connection open
       * until the client closes it (a model that stalls mid-answer, past the client's deadline).
       */
      stallAfterChunks?: number;
    }
  /** An HTTP error with an OpenAI-style body: `{ error: { message, type, code } }`. */
  | { status: number; message?: string; type?: string; code?: string; delayMs?: number }
  /** A 200 whose body is this text as it is (not JSON, or JSON of the wrong shape). */
  | { malformed: string; delayMs?: number }
  /** The connection is destroyed without an answer. */
  | { drop: true; delayMs?: number };

export type StandInScript = StandInAnswer | ((request: StandInRequest) => StandInAnswer);

export interface AiStandIn {
  /** The base URL to configure, `http://127.0.0.1:{port}/v1` (AI_BASE_URL). */
  url: string;
  model: string;
  /** Every request received, in order (chat completions and model lists). */
  requests: StandInRequest[];
  /** Only the `POST /v1/chat/completions` requests. */
  readonly completions: StandInRequest[];
  /** Queues answers, used one per chat request in order. */
  enqueue(...answers: StandInScript[]): void;
  /** The answer when the queue is empty (default: a 500 saying nothing was scripted). */
  setDefault(answer: StandInScript): void;
  /** Environment for `startPipit({ env })`: AI_BASE_URL, AI_MODEL and AI_API_KEY when set. */
  env(extra?: Record<string, string>): Record<string, string>;
  /** Resolves when at least `count` chat requests have arrived. */
  waitForCompletions(count: number): Promise<void>;
  close(): Promise<void>;
}

export interface AiStandInOptions {
  model?: string;
  /** When set, requests without `Authorization: Bearer {apiKey}` get a 401, like a real provider. */
  apiKey?: string;
}

function wordCount(text: string): number {
  const words = text.trim().split(/\s+/);
  return words[0] === '' ? 0 : words.length;
}

function errorBody(status: number, message?: string, type?: string, code?: string) {
  return {
    error: {
      message: message ?? `The stand-in answered ${status}.`,
      type: type ?? (status === 429 ? 'rate_limit_exceeded' : 'server_error'),
      param: null,
      code: code ?? null,
    },
  };
}

export async function startAiStandIn(options: AiStandInOptions = {}): Promise<AiStandIn> {
  const model = options.model ?? 'stand-in-model';
  const requests: StandInRequest[] = [];
  const queue: StandInScript[] = [];
  let fallback: StandInScript = {
    status: 500,
    message: 'The stand-in has no scripted answer for this request.',
  };
  const waiters = new Set<() => void>();
  const sockets = new Set<Socket>();
  let created = 1_700_000_000;

  const completions = () => requests.filter((r) => r.path === '/v1/chat/completions');

  function sendJson(res: ServerResponse, status: number, body: unknown) {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
    });
    res.end(text);
  }

  async function answerChat(req: IncomingMessage, res: ServerResponse, request: StandInRequest) {
    const script = queue.length > 0 ? queue.shift()! : fallback;
    const answer = typeof script === 'function' ? script(request) : script;
    const delayMs = typeof answer === 'string' ? 0 : (answer.delayMs ?? 0);
    if (delayMs > 0) {
      // The provider thinking: the client under test decides when to give up.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delayMs);
        req.socket.once('close', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      if (req.socket.destroyed) return;
    }
    if (typeof answer !== 'string') {
      if ('drop' in answer) {
        req.socket.destroy();
        return;
      }
      if ('malformed' in answer) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(answer.malformed);
        return;
      }
      if ('status' in answer) {
        sendJson(
          res,
          answer.status,
          errorBody(answer.status, answer.message, answer.type, answer.code),
        );
        return;
      }
    }
    const content = typeof answer === 'string' ? answer : answer.content;
    const given = typeof answer === 'string' ? undefined : answer.usage;
    const promptWords = (request.body.messages ?? []).reduce(
      (sum, m) => sum + wordCount(typeof m.content === 'string' ? m.content : ''),
      0,
    );
    const usage =
      given === null
        ? null
        : (given ?? {
            prompt_tokens: promptWords,
            completion_tokens: wordCount(content),
          });
    const id = `chatcmpl-stand-in-${requests.length}`;
    created += 1;

    if (!request.body.stream) {
      sendJson(res, 200, {
        id,
        object: 'chat.completion',
        created,
        model,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content, refusal: null },
            logprobs: null,
            finish_reason: 'stop',
          },
        ],
        ...(usage
          ? { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } }
          : {}),
      });
      return;
    }

    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    const chunkSize = typeof answer === 'string' ? 8 : (answer.chunkSize ?? 8);
    const dropAfter = typeof answer === 'string' ? undefined : answer.dropAfterChunks;
    const stallAfter = typeof answer === 'string' ? undefined : answer.stallAfterChunks;
    const send = (chunk: unknown) => res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    const base = { id, object: 'chat.completion.chunk', created, model };
    send({
      ...base,
      choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }],
    });
    let sent = 0;
    for (let i = 0; i < content.length; i += chunkSize) {
      if (dropAfter !== undefined && sent >= dropAfter) {
        req.socket.destroy();
        return;
      }
      // Nothing more is sent: the client under test decides when to give up.
      if (stallAfter !== undefined && sent >= stallAfter) return;
      send({
        ...base,
        choices: [
          { index: 0, delta: { content: content.slice(i, i + chunkSize) }, finish_reason: null },
        ],
      });
      sent += 1;
    }
    if (dropAfter !== undefined && sent >= dropAfter) {
      req.socket.destroy();
      return;
    }
    send({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
    if (request.body.stream_options?.include_usage && usage) {
      send({
        ...base,
        choices: [],
        usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
      });
    }
    res.write('data: [DONE]\n\n');
    res.end();
  }

  const server = createServer((req, res) => {
    const pieces: Buffer[] = [];
    req.on('data', (piece: Buffer) => pieces.push(piece));
    req.on('end', () => {
      const raw = Buffer.concat(pieces).toString('utf8');
      let body: StandInChatBody;
      try {
        body = raw ? (JSON.parse(raw) as StandInChatBody) : {};
      } catch {
        body = {};
      }
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      const path = new URL(req.url ?? '/', 'http://stand-in').pathname;
      const request: StandInRequest = {
        method: req.method ?? 'GET',
        path,
        headers,
        body,
        raw,
        abandoned: false,
      };
      requests.push(request);
      res.once('close', () => {
        if (!res.writableFinished) request.abandoned = true;
      });
      for (const wake of waiters) wake();

      if (options.apiKey && headers.authorization !== `Bearer ${options.apiKey}`) {
        sendJson(
          res,
          401,
          errorBody(401, 'Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key'),
        );
        return;
      }
      if (req.method === 'GET' && path === '/v1/models') {
        sendJson(res, 200, {
          object: 'list',
          data: [{ id: model, object: 'model', created: 1_700_000_000, owned_by: 'stand-in' }],
        });
        return;
      }
      if (req.method === 'POST' && path === '/v1/chat/completions') {
        answerChat(req, res, request).catch(() => req.socket.destroy());
        return;
      }
      sendJson(
        res,
        404,
        errorBody(404, `No route ${req.method} ${path}.`, 'invalid_request_error'),
      );
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}/v1`;

  return {
    url,
    model,
    requests,
    get completions() {
      return completions();
    },
    enqueue(...answers) {
      queue.push(...answers);
    },
    setDefault(answer) {
      fallback = answer;
    },
    env(extra = {}) {
      return {
        AI_BASE_URL: url,
        AI_MODEL: model,
        ...(options.apiKey ? { AI_API_KEY: options.apiKey } : {}),
        ...extra,
      };
    },
    waitForCompletions(count) {
      return new Promise<void>((resolve) => {
        const check = () => {
          if (completions().length >= count) {
            waiters.delete(check);
            resolve();
          }
        };
        waiters.add(check);
        check();
      });
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A person who leaves mid-run: posts `body` to Pipit's `path` as `client` (its session cookie and
 * same-origin headers, as `ApiClient` sends them) and closes the connection as soon as the provider
 * has been asked. Resolves once the request has failed on the person's side.
 */
export async function leaveOnceAsked(
  standIn: AiStandIn,
  client: { baseUrl: string; cookie: string | null },
  path: string,
  body: unknown,
): Promise<void> {
  const asked = standIn.completions.length;
  const leaving = new AbortController();
  const pending = fetch(`${client.baseUrl}${path}`, {
    method: 'POST',
    headers: {
      Origin: client.baseUrl,
      'Sec-Fetch-Site': 'same-origin',
      'Content-Type': 'application/json',
      ...(client.cookie ? { Cookie: client.cookie } : {}),
    },
    body: JSON.stringify(body),
    signal: leaving.signal,
  }).then((response) => response.text());
  await standIn.waitForCompletions(asked + 1);
  leaving.abort();
  await pending.then(
    () => {
      throw new Error(`${path} answered before the person left`);
    },
    () => undefined,
  );
}
