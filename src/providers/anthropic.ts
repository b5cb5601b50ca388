// The Anthropic messages backend through the official SDK; ANTHROPIC_BASE_URL points it elsewhere. The API takes
// neither a seed nor (any longer) a temperature, so requests for it carry null for both. The request body and the
// reading of a message are shared with the batch interface (./batch-anthropic.ts).
import { onFirstUse, sdkCall, sdkOptions } from './sdk.js';
import {
  ProviderCallError,
  type ChatRequest,
  type ChatResponse,
  type ClientConfig,
  type ModelClient,
} from './types.js';

/** The messages body for a request. */
export function anthropicBody(model: string, request: ChatRequest) {
  return {
    model,
    max_tokens: request.maxTokens,
    system: request.system,
    messages: [{ role: 'user' as const, content: request.user }],
  };
}

/** A message as the harness records it; a body without content blocks or usage is malformed. */
export function anthropicResponse(message: unknown, model: string): ChatResponse {
  const m = message as {
    model?: unknown;
    content?: unknown;
    usage?: {
      input_tokens?: unknown;
      output_tokens?: unknown;
      cache_read_input_tokens?: number | null;
      cache_creation_input_tokens?: number | null;
    };
  } | null;
  const usage = m?.usage;
  if (
    !Array.isArray(m?.content) ||
    !usage ||
    typeof usage.input_tokens !== 'number' ||
    typeof usage.output_tokens !== 'number'
  ) {
    throw new ProviderCallError('malformed', 'the response has no content blocks or no usage fields');
  }
  const text = (m.content as { type?: string; text?: string }[])
    .flatMap((block) => (block.type === 'text' && typeof block.text === 'string' ? [block.text] : []))
    .join('');
  return {
    text,
    usage: {
      input: usage.input_tokens,
      output: usage.output_tokens,
      cacheRead: usage.cache_read_input_tokens ?? 0,
      cacheWrite: usage.cache_creation_input_tokens ?? 0,
    },
    model: typeof m.model === 'string' ? m.model : model,
  };
}

export function anthropicClient(config: ClientConfig): ModelClient {
  const connect = onFirstUse(async () => {
    const { default: Anthropic } = await import('@anthropic-ai/sdk');
    return { Anthropic, client: new Anthropic(sdkOptions(config)) };
  });
  return {
    provider: 'anthropic',
    model: config.model,
    async complete(request: ChatRequest): Promise<ChatResponse> {
      const { Anthropic, client } = await connect();
      const message = await sdkCall(Anthropic, config, () =>
        client.messages.create(anthropicBody(config.model, request)),
      );
      return anthropicResponse(message, config.model);
    },
  };
}
