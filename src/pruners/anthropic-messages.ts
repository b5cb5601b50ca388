// Anthropic Messages: `user` and `assistant` messages of content blocks (`text`, `tool_use` with its `input`,
// `tool_result` with its `tool_use_id`, `content` and `is_error` when the call failed). Consecutive items of one
// speaker share a message, and a tool result is the user's, as the API has it. System items are not messages in
// this format: they go beside the array (the pruner's second argument carries them as `system`), so a pruner of the
// array cannot touch them and they are kept. Reasoning is a text block: a `thinking` block needs the provider's
// signature, which a recorded trajectory does not have.
import type { PolicyView } from '../fixture/view.js';
import { argumentsText, isRecord, type Piece, piecesOf, plainText, runs } from './pieces.js';
import { type MessageFormat, type Rendered, ShapeProblem, type Unit } from './types.js';

const roleOf = (p: Piece): 'user' | 'assistant' => (p.speaker === 'assistant' ? 'assistant' : 'user');

function blockOf(p: Piece): Record<string, unknown> {
  if (p.kind === 'tool-call') return { type: 'tool_use', id: p.callId, name: p.toolName, input: p.args };
  if (p.kind === 'tool-result')
    return { type: 'tool_result', tool_use_id: p.callId, content: p.text, ...(p.isError ? { is_error: true } : {}) };
  return { type: 'text', text: p.text };
}

function render(view: PolicyView): Rendered {
  const pieces = piecesOf(view);
  const system = pieces.filter((p) => p.speaker === 'system');
  const rest = pieces.filter((p) => p.speaker !== 'system');
  const messages = runs(rest, (a, b) => roleOf(a) === roleOf(b)).map((run) => ({
    role: roleOf(run[0]!),
    content: run.map(blockOf),
  }));
  return {
    format: 'anthropic-messages',
    messages,
    system: system.map((p) => ({ type: 'text', text: p.text })),
    units: unitsOf(messages),
    itemOfUnit: rest.map((p) => p.itemId),
    beside: system.map((p) => p.itemId),
  };
}

function unitsOf(messages: unknown): Unit[] {
  if (!Array.isArray(messages)) throw new ShapeProblem(null, 'the pruner must return an array of messages');
  const units: Unit[] = [];
  messages.forEach((m: unknown, message) => {
    if (!isRecord(m) || (m['role'] !== 'user' && m['role'] !== 'assistant'))
      throw new ShapeProblem(message, 'not a message with role "user" or "assistant"');
    const role = m['role'];
    const content = m['content'];
    if (typeof content === 'string') {
      units.push({ role, kind: 'text', text: content, message });
      return;
    }
    if (!Array.isArray(content)) throw new ShapeProblem(message, 'content must be a string or an array of blocks');
    for (const block of content) {
      const type = isRecord(block) ? block['type'] : undefined;
      if (!isRecord(block)) throw new ShapeProblem(message, 'a content block must be an object');
      if (type === 'text' && typeof block['text'] === 'string')
        units.push({ role, kind: 'text', text: block['text'], message });
      else if (type === 'thinking' && typeof block['thinking'] === 'string')
        units.push({ role, kind: 'reasoning', text: block['thinking'], message });
      else if (type === 'tool_use' && typeof block['id'] === 'string' && typeof block['name'] === 'string')
        units.push({
          role,
          kind: 'tool-call',
          callId: block['id'],
          toolName: block['name'],
          text: argumentsText(block['input']),
          message,
        });
      else if (type === 'tool_result' && typeof block['tool_use_id'] === 'string') {
        const text = block['content'] === undefined ? '' : plainText(block['content']);
        if (text === null) throw new ShapeProblem(message, 'a tool_result block needs text content');
        units.push({ role, kind: 'tool-result', callId: block['tool_use_id'], text, message });
      } else
        throw new ShapeProblem(message, `a content block of type "${String(type)}" prunelab cannot map to an item`);
    }
  });
  return units;
}

export const anthropicMessages: MessageFormat = {
  name: 'anthropic-messages',
  adds: 'roles and block types; a tool call is rendered from its recorded name and arguments; system items go beside the messages (`system`), untouchable by the pruner',
  render,
  unitsOf,
};
