// The Vercel AI SDK's ModelMessage (ai 6): `system` messages with string content, `user` messages of text parts,
// `assistant` messages of `reasoning`, `text` and `tool-call` parts (`toolCallId`, `toolName`, `input`), and `tool`
// messages of `tool-result` parts whose `output` is `{ type: 'text' | 'error-text', value }`. Consecutive items of
// one speaker share a message, as a step of the SDK's agent loop writes them; a model's reasoning item is a
// `reasoning` part (the format has that slot, and pruneMessages' `reasoning` option acts on it).
import type { PolicyView } from '../fixture/view.js';
import { argumentsText, isRecord, type Piece, piecesOf, runs } from './pieces.js';
import { type MessageFormat, type Rendered, ShapeProblem, type Unit } from './types.js';

function partOf(p: Piece): Record<string, unknown> {
  if (p.kind === 'tool-call') return { type: 'tool-call', toolCallId: p.callId, toolName: p.toolName, input: p.args };
  if (p.kind === 'tool-result')
    return {
      type: 'tool-result',
      toolCallId: p.callId,
      toolName: p.toolName,
      output: { type: p.isError ? 'error-text' : 'text', value: p.text },
    };
  return { type: p.kind === 'reasoning' ? 'reasoning' : 'text', text: p.text };
}

function render(view: PolicyView): Rendered {
  const pieces = piecesOf(view);
  const messages = runs(pieces, (a, b) => a.speaker === b.speaker && a.speaker !== 'system').map((run) => {
    const first = run[0]!;
    return first.speaker === 'system'
      ? { role: 'system', content: first.text }
      : { role: first.speaker, content: run.map(partOf) };
  });
  return { format: 'ai-sdk', messages, units: unitsOf(messages), itemOfUnit: pieces.map((p) => p.itemId), beside: [] };
}

function outputText(output: unknown): string | null {
  if (!isRecord(output)) return null;
  const { type, value } = output;
  if ((type === 'text' || type === 'error-text') && typeof value === 'string') return value;
  if (type === 'json' || type === 'error-json') return JSON.stringify(value) ?? '';
  if (type === 'execution-denied') return typeof output['reason'] === 'string' ? output['reason'] : '';
  if (type === 'content' && Array.isArray(value)) {
    let text = '';
    for (const part of value) {
      if (!isRecord(part) || part['type'] !== 'text' || typeof part['text'] !== 'string') return null;
      text += part['text'];
    }
    return text;
  }
  return null;
}

function unitOfPart(role: string, part: unknown, message: number): Unit {
  const type = isRecord(part) ? part['type'] : undefined;
  if (!isRecord(part)) throw new ShapeProblem(message, 'a content part must be an object');
  if ((type === 'text' || type === 'reasoning') && typeof part['text'] === 'string')
    return { role, kind: type, text: part['text'], message };
  if (type === 'tool-call' && typeof part['toolCallId'] === 'string' && typeof part['toolName'] === 'string')
    return {
      role,
      kind: 'tool-call',
      callId: part['toolCallId'],
      toolName: part['toolName'],
      text: argumentsText(part['input']),
      message,
    };
  if (type === 'tool-result' && typeof part['toolCallId'] === 'string') {
    const text = outputText(part['output']);
    if (text === null) throw new ShapeProblem(message, 'a tool-result part needs an output prunelab can read as text');
    return { role, kind: 'tool-result', callId: part['toolCallId'], text, message };
  }
  throw new ShapeProblem(message, `a content part of type "${String(type)}" prunelab cannot map to an item`);
}

function unitsOf(messages: unknown): Unit[] {
  if (!Array.isArray(messages)) throw new ShapeProblem(null, 'the pruner must return an array of messages');
  const units: Unit[] = [];
  messages.forEach((m: unknown, message) => {
    const role = isRecord(m) ? m['role'] : undefined;
    if (!isRecord(m) || (role !== 'system' && role !== 'user' && role !== 'assistant' && role !== 'tool'))
      throw new ShapeProblem(message, 'not a message with role "system", "user", "assistant" or "tool"');
    const content = m['content'];
    if (typeof content === 'string') {
      if (role === 'tool') throw new ShapeProblem(message, 'a tool message holds tool-result parts');
      units.push({ role, kind: 'text', text: content, message });
      return;
    }
    if (role === 'system' || !Array.isArray(content))
      throw new ShapeProblem(
        message,
        role === 'system' ? 'a system message has string content' : 'content must be a string or an array of parts',
      );
    for (const part of content) units.push(unitOfPart(role, part, message));
  });
  return units;
}

export const aiSdk: MessageFormat = {
  name: 'ai-sdk',
  adds: "roles and part types; a tool call is rendered from its recorded name and arguments, a failed call's result as `error-text`",
  render,
  unitsOf,
};
