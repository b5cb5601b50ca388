// The Anthropic messages backend through the official SDK; ANTHROPIC_BASE_URL points it elsewhere. The SDK's own
// retries are off: the harness retries. The API takes neither a seed nor (any longer) a temperature, so requests
// for it carry null for both.
import Anthropic from '@anthropic-ai/sdk';
import { callError } from './sdk-errors.js';
import { ProviderCallError, type ChatRequest, type ChatResponse, type ClientConfig, type ModelClient } from './types.js';

export function anthropicClient(config: ClientConfig): ModelClient {
  const client = new Anthropic({ apiKey: config.apiKey, baseURL: config.baseURL, maxRetries: 0, timeout: config.timeoutMs });
  return {
    provider: 'anthropic',
    model: config.model,
    async complete(request: ChatRequest): Promise<ChatResponse> {
      let message: Anthropic.Message;
      try {
        message = await client.messages.create({
          model: config.model,
          max_tokens: request.maxTokens,
          system: request.system,
          messages: [{ role: 'user', content: request.user }],
        });
      } catch (err) {
        throw callError(err, Anthropic.APIError, Anthropic.APIConnectionTimeoutError, Anthropic.APIConnectionError, [config.apiKey]);
      }
      const usage = message?.usage;
      if (!Array.isArray(message?.content) || !usage || typeof usage.input_tokens !== 'number' || typeof usage.output_tokens !== 'number') {
        throw new ProviderCallError('malformed', 'the response has no content blocks or no usage fields');
      }
      const text = message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
      return {
        text,
        usage: {
          input: usage.input_tokens,
          output: usage.output_tokens,
          cacheRead: usage.cache_read_input_tokens ?? 0,
          cacheWrite: usage.cache_creation_input_tokens ?? 0,
        },
        model: typeof message.model === 'string' ? message.model : config.model,
      };
    },
  };
}
