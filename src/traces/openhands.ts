// OpenHands event streams (the JSON list of serialized events a conversation's trajectory holds, as its
// event_to_dict writes them): actions carry `action`, `args`, `source` (agent, user, environment), `timestamp`;
// observations carry `observation`, `content`, `extras` and `cause`, the id of the action they answer. The system
// prompt (a `system` action) and recalled workspace context (a `recall` observation's content) are the runtime's
// text; internal events the model never reads (agent state changes, recall queries, nulls) are left out.
import type { SideEffectClass, Source, Status } from '../fixture/schema.js';
import type { TraceBuilder } from './build.js';
import type { Json, JsonObject, Reader } from './parse.js';
import { normalisePath, readShell } from './shell.js';

const SKIPPED = new Set(['agent_state_changed', 'change_agent_state', 'null', 'recall']);

async function toolFor(action: string, args: JsonObject): Promise<{ name: string; sideEffect: SideEffectClass; arguments: Record<string, unknown>; path?: string }> {
  const path = typeof args['path'] === 'string' ? args['path'] : undefined;
  if (action === 'run') {
    const command = typeof args['command'] === 'string' ? args['command'] : '';
    const kind = (await readShell(command)).kind;
    return { name: kind === 'read' ? 'shell.read' : 'shell.exec', sideEffect: kind === 'read' ? 'read-mutable' : 'non-idempotent', arguments: { command } };
  }
  if (action === 'read') return { name: 'read', sideEffect: 'read-mutable', arguments: { path: path ?? '' }, ...(path ? { path } : {}) };
  if (action === 'edit' || action === 'write') {
    return { name: action, sideEffect: 'non-idempotent', arguments: { path: path ?? '', command: typeof args['command'] === 'string' ? args['command'] : action }, ...(path ? { path } : {}) };
  }
  if (action === 'browse' || action === 'browse_interactive') return { name: action, sideEffect: 'read-mutable', arguments: { url: args['url'] ?? args['browser_actions'] ?? '' } };
  return { name: action, sideEffect: 'non-idempotent', arguments: { ...args } };
}

export async function importOpenHands(root: Json, r: Reader, b: TraceBuilder): Promise<void> {
  const events = Array.isArray(root) ? root : r.array(r.object(root, [])['events'], ['events']);
  const base: (string | number)[] = Array.isArray(root) ? [] : ['events'];
  const calls = new Map<number, { name: string; sideEffect: SideEffectClass; arguments: Record<string, unknown>; path?: string; command: string }>();
  for (const [i, raw] of events.entries()) {
    const path = [...base, i];
    const e = r.object(raw, path);
    const time = r.optString(e['timestamp'], [...path, 'timestamp']);
    const source = r.optString(e['source'], [...path, 'source']) ?? 'agent';
    if (typeof e['action'] === 'string') {
      const action = e['action'];
      if (SKIPPED.has(action)) continue;
      const args = e['args'] === undefined ? {} : r.object(e['args'], [...path, 'args']);
      const id = typeof e['id'] === 'number' ? e['id'] : r.fail([...path, 'id'], 'expected the event id, a number');
      if (action === 'system') {
        b.add({ origin: 'system', kind: 'instruction', content: r.string(args['content'] ?? e['message'] ?? '', [...path, 'args', 'content']), time });
        continue;
      }
      if (action === 'message') {
        const content = r.string(args['content'] ?? e['message'] ?? '', [...path, 'args', 'content']);
        if (source === 'user') b.userInstruction(content, time);
        else {
          b.modelTurn();
          b.add({ origin: 'model', kind: 'reasoning', content, time });
        }
        continue;
      }
      if (action === 'think' || action === 'finish') {
        b.modelTurn();
        const text = [args['thought'], args['final_thought'], e['message']].find((t): t is string => typeof t === 'string' && t !== '') ?? '';
        b.add({ origin: 'model', kind: 'reasoning', content: text, time });
        continue;
      }
      b.modelTurn();
      const thought = typeof args['thought'] === 'string' ? args['thought'] : '';
      const tool = await toolFor(action, args);
      const shown = typeof args['command'] === 'string' ? args['command'] : JSON.stringify(tool.arguments);
      calls.set(id, { ...tool, command: shown });
      const effects = tool.sideEffect === 'non-idempotent' && tool.path ? [normalisePath(tool.path)] : [];
      b.add({ origin: 'model', kind: 'tool-call', content: thought ? `${thought}\n${shown}` : shown, time, tool: { name: tool.name, sideEffect: tool.sideEffect, arguments: tool.arguments, callId: `ev-${id}` }, effects });
    } else if (typeof e['observation'] === 'string') {
      const observation = e['observation'];
      const content = r.string(e['content'] ?? '', [...path, 'content']);
      if (observation === 'recall') {
        if (content.trim() !== '') b.add({ origin: 'system', kind: 'instruction', content, time });
        continue;
      }
      if (SKIPPED.has(observation)) continue;
      const cause = r.optNumber(e['cause'], [...path, 'cause']);
      const call = cause === undefined ? undefined : calls.get(cause);
      if (!call) {
        // An observation no recorded action caused (a user-side error, a runtime notice): the runtime speaking.
        b.add({ origin: 'system', kind: 'instruction', content, time });
        continue;
      }
      const extras = e['extras'] === undefined ? {} : r.object(e['extras'], [...path, 'extras']);
      const metadata = extras['metadata'] && typeof extras['metadata'] === 'object' && !Array.isArray(extras['metadata']) ? (extras['metadata'] as JsonObject) : {};
      const exit = typeof metadata['exit_code'] === 'number' ? metadata['exit_code'] : typeof extras['exit_code'] === 'number' ? extras['exit_code'] : undefined;
      let status: Status = { state: 'ok' };
      if (observation === 'error') status = { state: 'error', errorType: 'error-observation', message: content.split('\n')[0]!.slice(0, 200) || 'error', fields: {} };
      else if (exit !== undefined && exit !== 0) status = { state: 'error', errorType: 'exit-code', message: `exit code ${exit}`, fields: { exit_code: String(exit) } };
      const reading = call.name.startsWith('shell') ? await readShell(call.command) : undefined;
      const readPath = call.name === 'read' ? call.path : reading?.path;
      const src: Source | undefined = readPath ? { identity: normalisePath(readPath), version: 'UNKNOWN', mutable: 'UNKNOWN' } : undefined;
      b.add({
        origin: 'environment', kind: 'tool-result', content, time,
        tool: { name: call.name, sideEffect: call.sideEffect, arguments: call.arguments, callId: `ev-${cause}` },
        status, ...(src ? { source: src } : {}),
        negativeResult: !!reading?.search && exit === 1 && content.trim() === '', transientState: !!reading?.transient,
      });
    }
  }
}
