// OpenCode session exports (`opencode export <session>`: {info, messages: [{info, parts}], todos}, the same shapes
// its storage keeps under session/, message/ and part/). A message's `info` has its role and `time.created` (epoch
// ms); its parts are `text`, `reasoning`, `tool` {callID, tool, state}, `file`, step markers and others. A tool
// part's state is pending, running, completed {input, output} or error {input, error}. Reasoning parts are left
// out (not resent to the model), as are step markers and a tool call that never finished (no result was seen).
import type { Source, Status } from '../fixture/schema.js';
import { agentTool, foundNothing } from './agent-tools.js';
import type { TraceBuilder } from './build.js';
import type { Json, Reader } from './parse.js';
import { normalisePath } from './shell.js';

export async function importOpenCode(root: Json, r: Reader, b: TraceBuilder): Promise<void> {
  const top = r.object(root, []);
  const messages = r.array(top['messages'], ['messages']);
  for (const [i, raw] of messages.entries()) {
    const path = ['messages', i];
    const m = r.object(raw, path);
    const info = r.object(m['info'], [...path, 'info']);
    const role = r.string(info['role'], [...path, 'info', 'role']);
    const created = info['time'] && typeof info['time'] === 'object' && !Array.isArray(info['time'])
      ? r.optNumber((info['time'] as Record<string, Json>)['created'], [...path, 'info', 'time', 'created']) : undefined;
    const parts = r.array(m['parts'], [...path, 'parts']);
    if (role === 'assistant') b.modelTurn();
    else if (role !== 'user') r.fail([...path, 'info', 'role'], `unknown role "${role}" (expected user or assistant)`);
    for (const [j, rawPart] of parts.entries()) {
      const ppath = [...path, 'parts', j];
      const part = r.object(rawPart, ppath);
      const type = r.string(part['type'], [...ppath, 'type']);
      if (type === 'text') {
        const text = r.string(part['text'], [...ppath, 'text']);
        if (role === 'user') {
          if (part['synthetic'] === true) b.add({ origin: 'system', kind: 'instruction', content: text, time: created });
          else b.userInstruction(text, created);
        } else b.add({ origin: 'model', kind: 'reasoning', content: text, time: created });
        continue;
      }
      if (type !== 'tool') continue;
      const name = r.string(part['tool'], [...ppath, 'tool']);
      const callId = r.string(part['callID'], [...ppath, 'callID']);
      const state = r.object(part['state'], [...ppath, 'state']);
      const status = r.string(state['status'], [...ppath, 'state', 'status']);
      const input = state['input'] === undefined ? {} : r.object(state['input'], [...ppath, 'state', 'input']);
      const times = state['time'] && typeof state['time'] === 'object' && !Array.isArray(state['time']) ? (state['time'] as Record<string, Json>) : {};
      const start = r.optNumber(times['start'], [...ppath, 'state', 'time', 'start']) ?? created;
      const end = r.optNumber(times['end'], [...ppath, 'state', 'time', 'end']) ?? start;
      const tool = await agentTool(name, input);
      const recorded = { name: tool.name, sideEffect: tool.sideEffect, arguments: { ...input }, callId };
      b.add({ origin: 'model', kind: 'tool-call', content: JSON.stringify({ tool: name, input }), time: start, tool: recorded, effects: tool.writes && tool.path ? [normalisePath(tool.path)] : [] });
      if (status === 'completed') {
        const output = r.string(state['output'], [...ppath, 'state', 'output']);
        const source: Source | undefined = !tool.writes && tool.path ? { identity: normalisePath(tool.path), version: 'UNKNOWN', mutable: 'UNKNOWN' } : undefined;
        const metadata = state['metadata'] && typeof state['metadata'] === 'object' && !Array.isArray(state['metadata']) ? (state['metadata'] as Record<string, Json>) : {};
        const exit = typeof metadata['exit'] === 'number' ? metadata['exit'] : undefined;
        // The bash tool completes whatever the command's exit code; the code it records says whether the command failed.
        const st: Status = exit !== undefined && exit !== 0
          ? { state: 'error', errorType: 'exit-code', message: `exit code ${exit}`, fields: { exit: String(exit) } }
          : { state: 'ok' };
        b.add({ origin: 'environment', kind: 'tool-result', content: output, time: end, tool: recorded, status: st, ...(source ? { source } : {}), negativeResult: tool.search && foundNothing(output), transientState: tool.transient });
      } else if (status === 'error') {
        const error = r.string(state['error'], [...ppath, 'state', 'error']);
        b.add({ origin: 'environment', kind: 'tool-result', content: error, time: end, tool: recorded, status: { state: 'error', errorType: 'tool-error', message: error.split('\n')[0]!.slice(0, 200) || 'tool error', fields: {} } });
      } else if (status !== 'pending' && status !== 'running') {
        r.fail([...ppath, 'state', 'status'], `unknown tool state "${status}" (expected pending, running, completed or error)`);
      }
    }
  }
}
