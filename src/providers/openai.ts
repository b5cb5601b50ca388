// The OpenAI chat completions backend through the official SDK. Also serves any OpenAI-compatible server (vLLM,
// Ollama) through OPENAI_BASE_URL. The request body and the reading of a completion are shared with the batch
// interface (./batch-openai.ts), so a batched call and an interactive one send and record the same thing.
import {
  ProviderCallError,
  type ChatRequest,
  type ChatResponse,
  type ClientConfig,
  type ModelClient,
} from './types.js';
import { onFirstUse, sdkCall, sdkOptions } from './sdk.js';

/** The chat completions body for a request. */
export function openaiBody(model: string, request: ChatRequest) {
  return {
    model,
    messages: [
      { role: 'system' as const, content: request.system },
      { role: 'user' as const, content: request.user },
    ],
    max_completion_tokens: request.maxTokens,
    ...(request.temperature !== null ? { temperature: request.temperature } : {}),
    ...(request.seed !== null ? { seed: request.seed } : {}),
  };
}

/** A completion as the harness records it; a body without content or usage is malformed. */
export function openaiResponse(completion: unknown, model: string): ChatResponse {
  const c = completion as {
    model?: unknown;
    choices?: { message?: { content?: unknown } }[];
    usage?: {
      prompt_tokens?: unknown;
      completion_tokens?: unknown;
      prompt_tokens_details?: { cached_tokens?: number } | null;
    };
  } | null;
  const text = c?.choices?.[0]?.message?.content;
  const usage = c?.usage;
  if (
    typeof text !== 'string' ||
    !usage ||
    typeof usage.prompt_tokens !== 'number' ||
    typeof usage.completion_tokens !== 'number'
  ) {
    throw new ProviderCallError('malformed', 'the response has no message content or no usage fields');
  }
  // prompt_tokens includes the cached prefix; split it so each part is priced at its own rate.
  const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
  return {
    text,
    usage: {
      input: Math.max(0, usage.prompt_tokens - cached),
      output: usage.completion_tokens,
      cacheRead: cached,
      cacheWrite: 0,
    },
    model: typeof c.model === 'string' ? c.model : model,
  };
}

export function openaiClient(config: ClientConfig): ModelClient {
  const connect = onFirstUse(async () => {
    const { default: OpenAI } = await import('openai');
    return { OpenAI, client: new OpenAI(sdkOptions(config)) };
  });
  return {
    provider: 'openai',
    model: config.model,
    async complete(request: ChatRequest): Promise<ChatResponse> {
      const { OpenAI, client } = await connect();
      const completion = await sdkCall(OpenAI, config, () =>
        client.chat.completions.create(openaiBody(config.model, request)),
      );
      return openaiResponse(completion, config.model);
    },
  };
}
