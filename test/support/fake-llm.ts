// One fake model server on 127.0.0.1 (random port) that speaks both the OpenAI chat completions API and the
// Anthropic messages API. Each test scripts it with a handler; every request is recorded, so tests count hits.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Api = 'openai' | 'anthropic';

export interface Hit {
  readonly api: Api;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: Record<string, unknown>;
}

export type Reply =
  | { readonly status: number; readonly headers?: Record<string, string>; readonly body: unknown }
  | { readonly raw: string; readonly status?: number }
  | 'hang';

export interface FakeLlm {
  readonly hits: Hit[];
  /** Replaces the handler; the default answers every request with `okText(api)`. */
  handle(handler: (hit: Hit, n: number) => Reply): void;
  readonly openaiURL: string;
  readonly anthropicURL: string;
  close(): Promise<void>;
}

export function openaiOk(text: string, usage = { prompt_tokens: 100, completion_tokens: 20, cached: 0 }): Reply {
  return {
    status: 200,
    body: {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 0,
      model: 'fake-model',
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: text } }],
      usage: {
        prompt_tokens: usage.prompt_tokens,
        completion_tokens: usage.completion_tokens,
        total_tokens: usage.prompt_tokens + usage.completion_tokens,
        prompt_tokens_details: { cached_tokens: usage.cached },
      },
    },
  };
}

export function anthropicOk(
  text: string,
  usage = { input_tokens: 100, output_tokens: 20, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
): Reply {
  return {
    status: 200,
    body: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'fake-model',
      stop_reason: 'end_turn',
      stop_sequence: null,
      content: [{ type: 'text', text }],
      usage,
    },
  };
}

export const ok = (api: Api, text: string): Reply => (api === 'openai' ? openaiOk(text) : anthropicOk(text));

/** The text of the last user message, whichever API sent it. */
export function userText(hit: Hit): string {
  const messages = hit.body.messages as { role: string; content: string }[];
  return messages
    .filter((m) => m.role === 'user')
    .map((m) => m.content)
    .join('\n');
}

export function systemText(hit: Hit): string {
  if (hit.api === 'anthropic') return String(hit.body.system ?? '');
  const messages = hit.body.messages as { role: string; content: string }[];
  return messages
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n');
}

export async function startFakeLlm(): Promise<FakeLlm> {
  const hits: Hit[] = [];
  const sockets = new Set<Socket>();
  let handler: (hit: Hit, n: number) => Reply = (hit) => ok(hit.api, '{"answer": "UNKNOWN"}');
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let data = '';
    req.on('data', (chunk: Buffer) => {
      data += chunk.toString('utf8');
    });
    req.on('end', () => {
      const path = req.url ?? '';
      const api: Api = path.endsWith('/messages') ? 'anthropic' : 'openai';
      const hit: Hit = {
        api,
        path,
        headers: req.headers,
        body: data ? (JSON.parse(data) as Record<string, unknown>) : {},
      };
      hits.push(hit);
      const reply = handler(hit, hits.length);
      if (reply === 'hang') return;
      if ('raw' in reply) {
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
        res.end(reply.raw);
        return;
      }
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(JSON.stringify(reply.body));
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    hits,
    handle(h) {
      handler = h;
    },
    openaiURL: `http://127.0.0.1:${port}/v1`,
    anthropicURL: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((done) => {
        for (const s of sockets) s.destroy();
        server.close(() => done());
      }),
  };
}

/** A port on 127.0.0.1 with nothing listening (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}
