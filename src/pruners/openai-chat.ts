// OpenAI Chat Completions messages: `system`, `user` and `assistant` messages with string content, an assistant
// message with `tool_calls` (`{ id, type: 'function', function: { name, arguments } }`, arguments as JSON text) and
// one `tool` message per result with its `tool_call_id`. Each text item is its own message; consecutive tool calls
// share one assistant message (content null), as a model's parallel calls do and as the API requires of the calls
// its tool messages answer.
import type { PolicyView } from '../fixture/view.js';
import { argumentsText, isRecord, type Piece, piecesOf, plainText, runs } from './pieces.js';
import { type MessageFormat, type Rendered, ShapeProblem, type Unit } from './types.js';

function messageOf(run: readonly Piece[]): Record<string, unknown> {
  const first = run[0]!;
  if (first.kind === 'tool-call') {
    return {
      role: 'assistant',
      content: null,
      tool_calls: run.map((p) => ({
        id: p.callId,
        type: 'function',
        function: { name: p.toolName, arguments: p.text },
      })),
    };
  }
  if (first.kind === 'tool-result') return { role: 'tool', tool_call_id: first.callId, content: first.text };
  return { role: first.speaker, content: first.text };
}

/**
 * The view's items as the messages this format sends, each a run of pieces in order. Exported because the
 * reimplementation of trimMessages (src/policy/comparators/langchain-trim-messages.ts) must weigh and drop the same
 * messages the package is handed, or the two decide differently wherever a cut falls inside a run of parallel calls.
 */
export function chatMessagePieces(view: PolicyView): Piece[][] {
  return runs(piecesOf(view), (a, b) => a.kind === 'tool-call' && b.kind === 'tool-call');
}

function render(view: PolicyView): Rendered {
  const grouped = chatMessagePieces(view);
  const pieces = grouped.flat();
  const messages = grouped.map(messageOf);
  return {
    format: 'openai-chat',
    messages,
    units: unitsOf(messages),
    itemOfUnit: pieces.map((p) => p.itemId),
    beside: [],
  };
}

function unitsOf(messages: unknown): Unit[] {
  if (!Array.isArray(messages)) throw new ShapeProblem(null, 'the pruner must return an array of messages');
  const units: Unit[] = [];
  messages.forEach((m: unknown, message) => {
    if (!isRecord(m) || typeof m['role'] !== 'string') throw new ShapeProblem(message, 'not a message with a role');
    const role = m['role'];
    const content = m['content'];
    if (role === 'tool') {
      const text = plainText(content);
      if (typeof m['tool_call_id'] !== 'string' || text === null)
        throw new ShapeProblem(message, 'a tool message needs a tool_call_id and text content');
      units.push({ role, kind: 'tool-result', callId: m['tool_call_id'], text, message });
      return;
    }
    if (role !== 'system' && role !== 'user' && role !== 'assistant' && role !== 'developer')
      throw new ShapeProblem(message, `unknown role "${role}"`);
    const calls = role === 'assistant' ? m['tool_calls'] : undefined;
    if (calls !== undefined && !Array.isArray(calls)) throw new ShapeProblem(message, 'tool_calls must be an array');
    // An assistant message that only carries calls has no text of its own (null, absent or empty).
    const textless = content === null || content === undefined || (calls !== undefined && content === '');
    if (!textless) {
      const text = plainText(content);
      if (text === null) throw new ShapeProblem(message, 'content must be a string or text parts');
      units.push({ role, kind: 'text', text, message });
    }
    for (const call of calls ?? []) {
      const fn = isRecord(call) ? call['function'] : undefined;
      if (!isRecord(call) || typeof call['id'] !== 'string' || !isRecord(fn) || typeof fn['name'] !== 'string')
        throw new ShapeProblem(message, 'a tool call needs an id and a function name');
      units.push({
        role,
        kind: 'tool-call',
        callId: call['id'],
        toolName: fn['name'],
        text: argumentsText(fn['arguments']),
        message,
      });
    }
  });
  return units;
}

export const openaiChat: MessageFormat = {
  name: 'openai-chat',
  adds: 'roles; a tool call is rendered from its recorded name and arguments (JSON text), not from its content line',
  render,
  unitsOf,
};
