// Claude Code session transcripts (~/.claude/projects/<project>/<session>.jsonl): one record per line. `user` and
// `assistant` records hold an Anthropic API `message`; assistant content blocks are `text`, `thinking` and
// `tool_use` {id, name, input}; user content is a prompt string or blocks of `text` and `tool_result`
// {tool_use_id, content, is_error}, with the tool's structured result beside it in `toolUseResult`. Other record
// types (summary, system, progress, file-history-snapshot) and sidechain (sub-agent) records are not what the main
// model saw, and are left out; so are thinking blocks, which the API drops from later turns.
import type { Source } from '../fixture/schema.js';
import { agentTool, foundNothing, type AgentTool } from './agent-tools.js';
import type { TraceBuilder } from './build.js';
import type { Json, JsonObject, Parsed, Reader } from './parse.js';
import { normalisePath } from './shell.js';

function blockText(r: Reader, v: Json | undefined, path: (string | number)[]): string {
  if (typeof v === 'string') return v;
  if (v === undefined || v === null) return '';
  return r.array(v, path).map((b, i) => {
    const o = r.object(b, [...path, i]);
    return typeof o['text'] === 'string' ? o['text'] : `[${String(o['type'] ?? 'block')}]`;
  }).join('\n');
}

export async function importClaudeCode(parsed: Parsed & { kind: 'jsonl' }, reader: Reader, b: TraceBuilder): Promise<void> {
  const calls = new Map<string, { name: string; tool: AgentTool; input: Record<string, unknown> }>();
  for (const { line, value } of parsed.lines) {
    const r: Reader = reader.atLine(line);
    const rec = r.object(value, []);
    const type = rec['type'];
    if ((type !== 'user' && type !== 'assistant') || rec['isSidechain'] === true) continue;
    const time = r.optString(rec['timestamp'], ['timestamp']);
    const message = r.object(rec['message'], ['message']);
    const content = message['content'];
    if (type === 'assistant') {
      b.modelTurn();
      const blocks = typeof content === 'string' ? [{ type: 'text', text: content } as JsonObject] : r.array(content, ['message', 'content']);
      for (const [i, raw] of blocks.entries()) {
        const block = r.object(raw, ['message', 'content', i]);
        if (block['type'] === 'text') b.add({ origin: 'model', kind: 'reasoning', content: r.string(block['text'], ['message', 'content', i, 'text']), time });
        if (block['type'] !== 'tool_use') continue;
        const id = r.string(block['id'], ['message', 'content', i, 'id']);
        const name = r.string(block['name'], ['message', 'content', i, 'name']);
        const input = block['input'] === undefined ? {} : r.object(block['input'], ['message', 'content', i, 'input']);
        const tool = await agentTool(name, input);
        calls.set(id, { name: tool.name, tool, input });
        b.add({
          origin: 'model', kind: 'tool-call', content: JSON.stringify({ name, input }), time,
          tool: { name: tool.name, sideEffect: tool.sideEffect, arguments: { ...input }, callId: id },
          effects: tool.writes && tool.path ? [normalisePath(tool.path)] : [],
        });
      }
      continue;
    }
    if (typeof content === 'string') {
      if (rec['isMeta'] === true) b.add({ origin: 'system', kind: 'instruction', content, time });
      else b.userInstruction(content, time);
      continue;
    }
    r.array(content, ['message', 'content']).forEach((raw, i) => {
      const path = ['message', 'content', i];
      const block = r.object(raw, path);
      if (block['type'] === 'text') {
        const text = r.string(block['text'], [...path, 'text']);
        if (rec['isMeta'] === true) b.add({ origin: 'system', kind: 'instruction', content: text, time });
        else b.userInstruction(text, time);
        return;
      }
      if (block['type'] !== 'tool_result') return;
      const id = r.string(block['tool_use_id'], [...path, 'tool_use_id']);
      const call = calls.get(id);
      if (!call) r.fail([...path, 'tool_use_id'], `answers tool_use "${id}", which no earlier assistant record made`);
      const text = blockText(r, block['content'], [...path, 'content']);
      const failed = block['is_error'] === true;
      const source: Source | undefined = !call.tool.writes && call.tool.path ? { identity: normalisePath(call.tool.path), version: 'UNKNOWN', mutable: 'UNKNOWN', ...selector(call.input) } : undefined;
      b.add({
        origin: 'environment', kind: 'tool-result', content: text, time,
        tool: { name: call.name, sideEffect: call.tool.sideEffect, arguments: { ...call.input }, callId: id },
        status: failed ? { state: 'error', errorType: 'tool-error', message: text.split('\n')[0]!.slice(0, 200) || 'tool error', fields: {} } : { state: 'ok' },
        ...(source ? { source } : {}),
        negativeResult: !failed && call.tool.search && foundNothing(text), transientState: call.tool.transient,
      });
    });
  }
}

/** A Read of part of a file (offset/limit) reads a selection of it, not the whole source. */
function selector(input: Record<string, unknown>): { selector?: string } {
  const offset = input['offset'];
  const limit = input['limit'];
  if (offset === undefined && limit === undefined) return {};
  return { selector: `offset ${String(offset ?? 0)} limit ${String(limit ?? 'all')}` };
}
