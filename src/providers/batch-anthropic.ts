// Anthropic Message Batches through the official SDK: POST /v1/messages/batches with every request and its
// custom_id, GET /v1/messages/batches/{id} until processing_status is "ended", then the JSONL at results_url.
import { anthropicBody, anthropicResponse } from './anthropic.js';
import { onFirstUse, sdkCall, sdkOptions } from './sdk.js';
import type { BatchBackend, BatchOutcome } from './batch.js';
import { ProviderCallError, type ClientConfig } from './types.js';

export function anthropicBatch(config: ClientConfig): BatchBackend {
  const connect = onFirstUse(async () => {
    const { default: Anthropic } = await import('@anthropic-ai/sdk');
    const client = new Anthropic(sdkOptions(config));
    return { client, call: <T>(request: () => Promise<T>) => sdkCall(Anthropic, config, request) };
  });
  return {
    provider: 'anthropic',
    model: config.model,
    async submit(items) {
      const { client, call } = await connect();
      const batch = await call(() =>
        client.messages.batches.create({
          requests: items.map(({ key, request }) => ({ custom_id: key, params: anthropicBody(config.model, request) })),
        }),
      );
      return batch.id;
    },
    async status(id) {
      const { client, call } = await connect();
      const b = await call(() => client.messages.batches.retrieve(id));
      const c = b.request_counts;
      const failed = c.errored + c.canceled + c.expired;
      return {
        status: b.processing_status,
        ended: b.processing_status === 'ended',
        done: c.succeeded + failed,
        failed,
        total: c.processing + c.succeeded + failed,
      };
    },
    async results(id) {
      const { client, call } = await connect();
      const out = new Map<string, BatchOutcome>();
      const stream = await call(() => client.messages.batches.results(id));
      await call(async () => {
        for await (const r of stream) out.set(r.custom_id, outcomeOf(r.result, config.model));
      });
      return out;
    },
  };
}

function outcomeOf(
  result: { type: string; message?: unknown; error?: { error?: { type?: string; message?: string } } },
  model: string,
): BatchOutcome {
  if (result.type !== 'succeeded') {
    const detail = result.error?.error
      ? `${result.error.error.type ?? 'error'}: ${result.error.error.message ?? ''}`
      : result.type;
    return { ok: false, kind: 'http', message: `batch request ${result.type}: ${detail}` };
  }
  try {
    return { ok: true, response: anthropicResponse(result.message, model) };
  } catch (err) {
    return {
      ok: false,
      kind: err instanceof ProviderCallError ? err.kind : 'malformed',
      message: (err as Error).message,
    };
  }
}
