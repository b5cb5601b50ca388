// mini-swe-agent `.traj.json` files: `messages` in OpenAI chat form, exactly the conversation the model saw. Newer
// runs call a `bash` tool (assistant `tool_calls`, answered by `tool` messages whose `extra` records the return
// code and a timestamp); older ones put one ```bash block in the assistant text, answered by a user message with a
// <returncode>. The closing `exit` message carries the submission, which the model never saw, so it is left out.
import type { Source, Status } from '../fixture/schema.js';
import type { Draft, TraceBuilder } from './build.js';
import type { Json, JsonObject, Reader } from './parse.js';
import { normalisePath, readShell } from './shell.js';

interface Call { readonly command: string; readonly callId: string; readonly name: string; readonly sideEffect: 'read-mutable' | 'non-idempotent' }

async function call(command: string, callId: string): Promise<Call> {
  const kind = (await readShell(command)).kind;
  return { command, callId, name: kind === 'read' ? 'shell.read' : 'shell.exec', sideEffect: kind === 'read' ? 'read-mutable' : 'non-idempotent' };
}

function status(returncode: number | undefined, exception: string | undefined): Status {
  if (exception) return { state: 'error', errorType: 'exception', message: exception.split('\n')[0]!.slice(0, 200) || 'exception', fields: returncode === undefined ? {} : { returncode: String(returncode) } };
  if (returncode !== undefined && returncode !== 0) return { state: 'error', errorType: 'exit-code', message: `exit code ${returncode}`, fields: { returncode: String(returncode) } };
  return { state: 'ok' };
}

async function result(c: Call, content: string, st: Status, time: number | undefined): Promise<Draft> {
  const reading = await readShell(c.command);
  const source: Source | undefined = reading.path
    ? { identity: normalisePath(reading.path), version: 'UNKNOWN', mutable: 'UNKNOWN', ...(reading.selector ? { selector: reading.selector } : {}) }
    : undefined;
  const output = /<output>\n?([\s\S]*?)<\/output>/.exec(content)?.[1] ?? '';
  const negative = reading.search && output.trim() === '' && (st.state === 'ok' || (st.state === 'error' && st.fields['returncode'] === '1'));
  return {
    origin: 'environment', kind: 'tool-result', content, time,
    tool: { name: c.name, sideEffect: c.sideEffect, arguments: { command: c.command }, callId: c.callId },
    status: st, ...(source ? { source } : {}), negativeResult: negative, transientState: reading.transient,
  };
}

export async function importMiniSweAgent(root: Json, r: Reader, b: TraceBuilder): Promise<void> {
  const top = r.object(root, []);
  const messages = r.array(top['messages'], ['messages']);
  const pending = new Map<string, Call>();
  let legacy: Call | undefined;
  let seenTask = false;
  let n = 0;
  for (const [i, raw] of messages.entries()) {
    const path = ['messages', i];
    const m = r.object(raw, path);
    const role = r.string(m['role'], [...path, 'role']);
    const content = typeof m['content'] === 'string' ? m['content'] : m['content'] === null || m['content'] === undefined ? '' : r.string(m['content'], [...path, 'content']);
    const extra = m['extra'] && typeof m['extra'] === 'object' && !Array.isArray(m['extra']) ? (m['extra'] as JsonObject) : undefined;
    if (role === 'system') {
      b.add({ origin: 'system', kind: 'instruction', content });
    } else if (role === 'assistant') {
      b.modelTurn();
      const response = extra && typeof extra['response'] === 'object' && extra['response'] && !Array.isArray(extra['response']) ? (extra['response'] as JsonObject) : undefined;
      const created = r.optNumber(response?.['created'], [...path, 'extra', 'response', 'created']);
      const time = created === undefined ? undefined : created * 1000;
      if (content.trim() !== '') b.add({ origin: 'model', kind: 'reasoning', content, time });
      const calls = m['tool_calls'] === undefined || m['tool_calls'] === null ? [] : r.array(m['tool_calls'], [...path, 'tool_calls']);
      for (const [j, rawCall] of calls.entries()) {
        const cpath = [...path, 'tool_calls', j];
        const tc = r.object(rawCall, cpath);
        const id = r.string(tc['id'], [...cpath, 'id']);
        const fn = r.object(tc['function'], [...cpath, 'function']);
        const args = r.string(fn['arguments'], [...cpath, 'function', 'arguments']);
        let command = args;
        try {
          const parsed = JSON.parse(args) as unknown;
          if (parsed && typeof parsed === 'object' && typeof (parsed as Record<string, unknown>)['command'] === 'string') command = (parsed as Record<string, string>)['command']!;
        } catch {
          // The model's arguments were not JSON; the runtime then ran nothing sensible, and the text is kept as is.
        }
        const c = await call(command, id);
        pending.set(id, c);
        b.add({ origin: 'model', kind: 'tool-call', content: args, time, tool: { name: c.name, sideEffect: c.sideEffect, arguments: { command }, callId: id } });
      }
      if (calls.length === 0) {
        const block = [...content.matchAll(/```(?:bash|sh)\s*\n([\s\S]*?)```/g)].pop()?.[1]?.trim();
        if (block) {
          n += 1;
          legacy = await call(block, `action-${n}`);
          b.add({ origin: 'model', kind: 'tool-call', content: block, time, tool: { name: legacy.name, sideEffect: legacy.sideEffect, arguments: { command: block }, callId: legacy.callId } });
        }
      }
    } else if (role === 'tool') {
      const id = r.string(m['tool_call_id'], [...path, 'tool_call_id']);
      const c = pending.get(id);
      if (!c) r.fail([...path, 'tool_call_id'], `answers tool call "${id}", which no earlier assistant message made`);
      pending.delete(id);
      const rc = r.optNumber(extra?.['returncode'], [...path, 'extra', 'returncode']);
      const exception = typeof extra?.['exception_info'] === 'string' ? extra['exception_info'] : undefined;
      const ts = r.optNumber(extra?.['timestamp'], [...path, 'extra', 'timestamp']);
      b.add(await result(c, content, status(rc, exception), ts === undefined ? undefined : ts * 1000));
    } else if (role === 'user' && !seenTask) {
      seenTask = true;
      b.userInstruction(content);
    } else if (role === 'user' && legacy && /<returncode>/.test(content)) {
      const rc = Number(/<returncode>(-?\d+)<\/returncode>/.exec(content)?.[1]);
      b.add(await result(legacy, content, status(Number.isFinite(rc) ? rc : undefined, undefined), undefined));
      legacy = undefined;
    } else if (role === 'user') {
      // After the task, mini-swe-agent's user turns are its own feedback (format errors, limits), not a person.
      b.add({ origin: 'system', kind: 'instruction', content });
    } else if (role === 'exit') {
      continue;
    } else {
      r.fail([...path, 'role'], `unknown role "${role}" (expected system, user, assistant, tool or exit)`);
    }
  }
}
