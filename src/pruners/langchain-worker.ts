// The worker side of the LangChain adapter (blocking.ts): builds LangChain messages from the rendered OpenAI-format
// messages, runs the real trimMessages with the harness's token counts, and answers with its output in the same
// OpenAI format, so that mapping it back is the same reading as for any other pruner. Compiled on its own and run as
// an eval worker: it imports only node: modules and loads the package from where prunelab's own install has it. It
// serves every thread of the process, each on a line of its own (blocking.ts).
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import type * as Messages from '@langchain/core/messages';
import type { Asked, Answered, Reply, ServedLine, WorkerStart } from './blocking.js';

export interface TrimRequest {
  readonly messages: readonly Record<string, unknown>[];
  /** The harness's token count of each message, by index. */
  readonly tokens: readonly number[];
  readonly options: {
    readonly maxTokens: number;
    readonly strategy: 'first' | 'last';
    readonly allowPartial: boolean;
    readonly includeSystem: boolean;
  };
}

interface OpenAiCall {
  readonly id: string;
  readonly function: { readonly name: string; readonly arguments: string };
}

const { flag, port, lines, resolveFrom } = workerData as WorkerStart & { readonly resolveFrom: string };
const lc = createRequire(resolveFrom)('@langchain/core/messages') as typeof Messages;

function toLangChain(m: Record<string, unknown>, index: number): Messages.BaseMessage {
  const id = String(index);
  const content = typeof m['content'] === 'string' ? m['content'] : '';
  if (m['role'] === 'system') return new lc.SystemMessage({ content, id });
  if (m['role'] === 'user') return new lc.HumanMessage({ content, id });
  if (m['role'] === 'tool') return new lc.ToolMessage({ content, id, tool_call_id: String(m['tool_call_id']) });
  const calls = (m['tool_calls'] as readonly OpenAiCall[] | undefined) ?? [];
  return new lc.AIMessage({
    content,
    id,
    tool_calls: calls.map((c) => ({
      id: c.id,
      name: c.function.name,
      args: JSON.parse(c.function.arguments) as Record<string, unknown>,
      type: 'tool_call' as const,
    })),
  });
}

function toOpenAi(m: Messages.BaseMessage): Record<string, unknown> {
  const type = m.getType();
  const content = m.content;
  if (type === 'system') return { role: 'system', content };
  if (type === 'human') return { role: 'user', content };
  if (type === 'tool') return { role: 'tool', tool_call_id: (m as Messages.ToolMessage).tool_call_id, content };
  const calls = (m as Messages.AIMessage).tool_calls ?? [];
  if (calls.length === 0) return { role: 'assistant', content };
  return {
    role: 'assistant',
    content: content === '' ? null : content,
    tool_calls: calls.map((c) => ({
      id: c.id,
      type: 'function',
      function: { name: c.name, arguments: JSON.stringify(c.args) },
    })),
  };
}

async function trim(request: TrimRequest): Promise<unknown[]> {
  const messages = request.messages.map(toLangChain);
  const tokenCounter = (list: Messages.BaseMessage[]): number =>
    list.reduce((sum, m) => sum + (request.tokens[Number(m.id)] ?? 0), 0);
  const trimmed = await lc.trimMessages(messages, { ...request.options, tokenCounter });
  return trimmed.map(toOpenAi);
}

/** Answers each request on the line it came on, and raises that line's flag. */
function serve({ flag, port, asked }: ServedLine): void {
  const signal = new Int32Array(flag);
  const answer = ({ id, request }: Asked): void => {
    const send = (reply: Reply): void => {
      port.postMessage({ id, reply } satisfies Answered);
      Atomics.store(signal, 0, 1);
      Atomics.notify(signal, 0);
    };
    trim(request as TrimRequest).then(
      (value) => send({ ok: true, value }),
      (err: unknown) => send({ ok: false, error: err instanceof Error ? err.message : String(err) }),
    );
  };
  asked.forEach(answer);
  port.on('message', answer);
}

serve({ flag, port, asked: [] });
lines.forEach(serve);
// Lines of threads that were handed theirs after this worker started.
parentPort?.on('message', serve);
