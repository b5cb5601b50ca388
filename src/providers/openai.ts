// The OpenAI chat completions backend through the official SDK. Also serves any OpenAI-compatible server (vLLM,
// Ollama) through OPENAI_BASE_URL.
import OpenAI from 'openai';
import { ProviderCallError, type ChatRequest, type ChatResponse, type ClientConfig, type ModelClient } from './types.js';
import { sdkCall, sdkOptions } from './sdk.js';

export function openaiClient(config: ClientConfig): ModelClient {
  const client = new OpenAI(sdkOptions(config));
  return {
    provider: 'openai',
    model: config.model,
    async complete(request: ChatRequest): Promise<ChatResponse> {
      const completion = await sdkCall(OpenAI, config, () => client.chat.completions.create({
        model: config.model,
        messages: [{ role: 'system', content: request.system }, { role: 'user', content: request.user }],
        max_completion_tokens: request.maxTokens,
        ...(request.temperature !== null ? { temperature: request.temperature } : {}),
        ...(request.seed !== null ? { seed: request.seed } : {}),
      }));
      const text = completion?.choices?.[0]?.message?.content;
      const usage = completion?.usage;
      if (typeof text !== 'string' || !usage || typeof usage.prompt_tokens !== 'number' || typeof usage.completion_tokens !== 'number') {
        throw new ProviderCallError('malformed', 'the response has no message content or no usage fields');
      }
      // prompt_tokens includes the cached prefix; split it so each part is priced at its own rate.
      const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
      return {
        text,
        usage: { input: Math.max(0, usage.prompt_tokens - cached), output: usage.completion_tokens, cacheRead: cached, cacheWrite: 0 },
        model: typeof completion.model === 'string' ? completion.model : config.model,
      };
    },
  };
}

