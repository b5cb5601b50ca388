// The OpenAI chat completions backend through the official SDK. Also serves any OpenAI-compatible server (vLLM,
// Ollama) through OPENAI_BASE_URL. The SDK's own retries are off: the harness retries, so attempts are counted once.
import OpenAI from 'openai';
import { ProviderCallError, type ChatRequest, type ChatResponse, type ClientConfig, type ModelClient } from './types.js';
import { callError } from './sdk-errors.js';

export function openaiClient(config: ClientConfig): ModelClient {
  const client = new OpenAI({ apiKey: config.apiKey, baseURL: config.baseURL, maxRetries: 0, timeout: config.timeoutMs });
  return {
    provider: 'openai',
    model: config.model,
    async complete(request: ChatRequest): Promise<ChatResponse> {
      let completion: OpenAI.Chat.Completions.ChatCompletion;
      try {
        completion = await client.chat.completions.create({
          model: config.model,
          messages: [{ role: 'system', content: request.system }, { role: 'user', content: request.user }],
          max_completion_tokens: request.maxTokens,
          ...(request.temperature !== null ? { temperature: request.temperature } : {}),
          ...(request.seed !== null ? { seed: request.seed } : {}),
        });
      } catch (err) {
        throw callError(err, OpenAI.APIError, OpenAI.APIConnectionTimeoutError, OpenAI.APIConnectionError, [config.apiKey]);
      }
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

