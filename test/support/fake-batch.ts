// A fake provider on 127.0.0.1 (random port) with both batch interfaces and both interactive endpoints, answering
// every request with one scripted function, so a batched run and an interactive one can be compared. OpenAI: file
// upload (multipart), POST /v1/batches, GET /v1/batches/{id}, GET /v1/files/{id}/content. Anthropic: POST
// /v1/messages/batches, GET /v1/messages/batches/{id}, its results_url. A batch reports in_progress for its first
// `pollsBeforeEnd` status requests.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { anthropicOk, openaiOk, type Api } from './fake-llm.js';

export interface FakeBatch {
  /** Every request: method and path. */
  readonly hits: string[];
  pollsBeforeEnd: number;
  answer: (api: Api, body: Record<string, unknown>) => string;
  readonly openaiURL: string;
  readonly anthropicURL: string;
  close(): Promise<void>;
}

interface Batch {
  api: Api;
  lines: { custom_id: string; body: Record<string, unknown> }[];
  polls: number;
}

export async function startFakeBatch(): Promise<FakeBatch> {
  const files = new Map<string, string>();
  const batches = new Map<string, Batch>();
  const sockets = new Set<Socket>();
  let port = 0;
  const fake: Omit<FakeBatch, 'openaiURL' | 'anthropicURL' | 'close'> = {
    hits: [],
    pollsBeforeEnd: 1,
    answer: () => '{"answer": "UNKNOWN"}',
  };
  const reply = (res: ServerResponse, body: unknown, type = 'application/json') => {
    res.writeHead(200, { 'content-type': type });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
  const ended = (b: Batch) => b.polls > fake.pollsBeforeEnd;
  const openaiBatch = (id: string, b: Batch) => ({
    id,
    object: 'batch',
    endpoint: '/v1/chat/completions',
    completion_window: '24h',
    input_file_id: 'in',
    created_at: 0,
    status: ended(b) ? 'completed' : 'in_progress',
    output_file_id: ended(b) ? `out-${id}` : null,
    error_file_id: null,
    request_counts: { total: b.lines.length, completed: ended(b) ? b.lines.length : 0, failed: 0 },
  });
  const anthropicBatch = (id: string, b: Batch) => ({
    id,
    type: 'message_batch',
    processing_status: ended(b) ? 'ended' : 'in_progress',
    created_at: '2026-12-03T00:00:00Z',
    expires_at: '2026-12-04T00:00:00Z',
    ended_at: null,
    archived_at: null,
    cancel_initiated_at: null,
    request_counts: {
      processing: ended(b) ? 0 : b.lines.length,
      succeeded: ended(b) ? b.lines.length : 0,
      errored: 0,
      canceled: 0,
      expired: 0,
    },
    results_url: ended(b) ? `http://127.0.0.1:${port}/v1/messages/batches/${id}/results` : null,
  });
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let data = '';
    req.on('data', (chunk: Buffer) => {
      data += chunk.toString('utf8');
    });
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0]!;
      fake.hits.push(`${req.method} ${path}`);
      let m: RegExpMatchArray | null;
      if (req.method === 'POST' && path === '/v1/chat/completions')
        return reply(res, (openaiOk(fake.answer('openai', JSON.parse(data))) as { body: unknown }).body);
      if (req.method === 'POST' && path === '/v1/messages')
        return reply(res, (anthropicOk(fake.answer('anthropic', JSON.parse(data))) as { body: unknown }).body);
      if (req.method === 'POST' && path === '/v1/files') {
        const id = `file-${files.size + 1}`;
        // The multipart body's one file part: its JSONL lines are the ones that open with custom_id.
        files.set(
          id,
          data
            .split(/\r?\n/)
            .filter((l) => l.startsWith('{"custom_id"'))
            .join('\n'),
        );
        return reply(res, {
          id,
          object: 'file',
          bytes: data.length,
          created_at: 0,
          filename: 'batch.jsonl',
          purpose: 'batch',
        });
      }
      if (req.method === 'POST' && path === '/v1/batches') {
        const { input_file_id } = JSON.parse(data) as { input_file_id: string };
        const lines = files
          .get(input_file_id)!
          .split('\n')
          .map((l) => JSON.parse(l) as { custom_id: string; body: Record<string, unknown> });
        const id = `batch_${batches.size + 1}`;
        batches.set(id, { api: 'openai', lines, polls: 0 });
        return reply(res, openaiBatch(id, batches.get(id)!));
      }
      if (req.method === 'GET' && (m = path.match(/^\/v1\/batches\/([^/]+)$/))) {
        const b = batches.get(m[1]!)!;
        b.polls += 1;
        return reply(res, openaiBatch(m[1]!, b));
      }
      if (req.method === 'GET' && (m = path.match(/^\/v1\/files\/out-([^/]+)\/content$/))) {
        const b = batches.get(m[1]!)!;
        return reply(
          res,
          b.lines
            .map((l) =>
              JSON.stringify({
                id: `req-${l.custom_id}`,
                custom_id: l.custom_id,
                error: null,
                response: {
                  status_code: 200,
                  request_id: 'r',
                  body: (openaiOk(fake.answer('openai', l.body)) as { body: unknown }).body,
                },
              }),
            )
            .join('\n'),
          'application/octet-stream',
        );
      }
      if (req.method === 'POST' && path === '/v1/messages/batches') {
        const { requests } = JSON.parse(data) as { requests: { custom_id: string; params: Record<string, unknown> }[] };
        const id = `msgbatch_${batches.size + 1}`;
        batches.set(id, {
          api: 'anthropic',
          lines: requests.map((r) => ({ custom_id: r.custom_id, body: r.params })),
          polls: 0,
        });
        return reply(res, anthropicBatch(id, batches.get(id)!));
      }
      if (req.method === 'GET' && (m = path.match(/^\/v1\/messages\/batches\/([^/]+)\/results$/))) {
        const b = batches.get(m[1]!)!;
        return reply(
          res,
          b.lines
            .map((l) =>
              JSON.stringify({
                custom_id: l.custom_id,
                result: {
                  type: 'succeeded',
                  message: (anthropicOk(fake.answer('anthropic', l.body)) as { body: unknown }).body,
                },
              }),
            )
            .join('\n'),
          'application/binary',
        );
      }
      if (req.method === 'GET' && (m = path.match(/^\/v1\/messages\/batches\/([^/]+)$/))) {
        const b = batches.get(m[1]!)!;
        b.polls += 1;
        return reply(res, anthropicBatch(m[1]!, b));
      }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `no route ${req.method} ${path}` } }));
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  port = (server.address() as AddressInfo).port;
  return Object.assign(fake, {
    openaiURL: `http://127.0.0.1:${port}/v1`,
    anthropicURL: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((done) => {
        for (const s of sockets) s.destroy();
        server.close(() => done());
      }),
  });
}
