// OpenAI Batch through the official SDK: the requests go up as a JSONL file (purpose "batch"), POST /v1/batches
// runs them against /v1/chat/completions within 24 hours, GET /v1/batches/{id} reports progress, and the output
// and error files hold one line per request, matched by custom_id.
import { openaiBody, openaiResponse } from './openai.js';
import { onFirstUse, sdkCall, sdkOptions } from './sdk.js';
import type { BatchBackend, BatchOutcome } from './batch.js';
import { ProviderCallError, type ClientConfig } from './types.js';

const ENDED = new Set(['completed', 'failed', 'expired', 'cancelled']);

export function openaiBatch(config: ClientConfig): BatchBackend {
  const connect = onFirstUse(async () => {
    const { default: OpenAI, toFile } = await import('openai');
    const client = new OpenAI(sdkOptions(config));
    return { client, toFile, call: <T>(request: () => Promise<T>) => sdkCall(OpenAI, config, request) };
  });
  const lines = async (fileId: string | null | undefined): Promise<unknown[]> => {
    if (!fileId) return [];
    const { client, call } = await connect();
    const text = await call(async () => (await client.files.content(fileId)).text());
    return text
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as unknown);
  };
  return {
    provider: 'openai',
    model: config.model,
    async submit(items) {
      const { client, call, toFile } = await connect();
      const jsonl = items
        .map(({ key, request }) =>
          JSON.stringify({
            custom_id: key,
            method: 'POST',
            url: '/v1/chat/completions',
            body: openaiBody(config.model, request),
          }),
        )
        .join('\n');
      const file = await call(async () =>
        client.files.create({
          file: await toFile(Buffer.from(`${jsonl}\n`), 'prunelab-batch.jsonl'),
          purpose: 'batch',
        }),
      );
      const batch = await call(() =>
        client.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' }),
      );
      return batch.id;
    },
    async status(id) {
      const { client, call } = await connect();
      const b = await call(() => client.batches.retrieve(id));
      const counts = b.request_counts ?? { completed: 0, failed: 0, total: 0 };
      return {
        status: b.status,
        ended: ENDED.has(b.status),
        done: counts.completed,
        failed: counts.failed,
        total: counts.total,
      };
    },
    async results(id) {
      const { client, call } = await connect();
      const b = await call(() => client.batches.retrieve(id));
      const out = new Map<string, BatchOutcome>();
      for (const line of [...(await lines(b.output_file_id)), ...(await lines(b.error_file_id))]) {
        const l = line as {
          custom_id?: string;
          response?: { status_code?: number; body?: unknown } | null;
          error?: { code?: string; message?: string } | null;
        };
        if (typeof l.custom_id !== 'string') continue;
        out.set(l.custom_id, outcomeOf(l, config.model));
      }
      return out;
    },
  };
}

function outcomeOf(
  line: {
    response?: { status_code?: number; body?: unknown } | null;
    error?: { code?: string; message?: string } | null;
  },
  model: string,
): BatchOutcome {
  const status = line.response?.status_code;
  if (line.error || status !== 200) {
    return {
      ok: false,
      kind: 'http',
      message: `batch request failed: HTTP ${status ?? '?'}: ${line.error?.message ?? line.error?.code ?? JSON.stringify(line.response?.body ?? null)}`,
    };
  }
  try {
    return { ok: true, response: openaiResponse(line.response?.body, model) };
  } catch (err) {
    return {
      ok: false,
      kind: err instanceof ProviderCallError ? err.kind : 'malformed',
      message: (err as Error).message,
    };
  }
}
