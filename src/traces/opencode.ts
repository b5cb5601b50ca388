// OpenCode session exports (`opencode export <session>`: {info, messages: [{info, parts}], todos}, the same shapes
// its storage keeps under session/, message/ and part/). A message's `info` has its role and `time.created` (epoch
// ms); its parts are `text`, `reasoning`, `tool` {callID, tool, state}, `file`, step markers and others. A tool
// part's state is pending, running, completed {input, output} or error {input, error}. Reasoning parts are left
// out (not resent to the model), as are step markers and a tool call that never finished (no result was seen).
// The bash tool completes whatever the command's exit code and records the code in `metadata.exit`; the read tool
// takes an `offset` and a `limit` and says which lines it showed and when it cut the file.
// A recorded event stream is folded into this shape first (opencode-events.ts).
import type { ReadSelector, Source, Status } from '../fixture/schema.js';
import { agentTool, foundNothing } from './agent-tools.js';
import type { TraceBuilder } from './build.js';
import { intOr, objectOr, type Json, type Reader } from './parse.js';
import { normalisePath, shellOutcome } from './shell.js';

/**
 * The lines a read showed. The output says which, whatever the version: 0.x numbers each line `00001| `, 1.x writes
 * `<content>1: ` and ends with "(Showing lines 680-809 of 950. ...)" or "(End of file - total 153 lines)". The offset
 * alone cannot say: 0.x counts it from 0, 1.x from 1.
 */
function readSelector(input: Record<string, unknown>, output: string): ReadSelector | undefined {
  const offset = intOr(input['offset']);
  const limit = intOr(input['limit']);
  const shown = /\(Showing lines (\d+)-(\d+) of (\d+)\b/.exec(output);
  const more =
    /File has more lines|\(Output truncated|lines truncated/i.test(output) ||
    (shown !== null && Number(shown[2]) < Number(shown[3]));
  if (offset === undefined && limit === undefined && !more) return undefined;
  const numbers = [...output.matchAll(/^(?:<content>)?(\d+)(?:\||: )/gm)].map((m) => Number(m[1]));
  const from = shown ? Number(shown[1]) : (numbers[0] ?? (offset ?? 0) + 1);
  const to = shown
    ? Number(shown[2])
    : numbers.length
      ? numbers[numbers.length - 1]
      : limit !== undefined
        ? from + limit - 1
        : undefined;
  return {
    kind: 'lines',
    from,
    ...(to !== undefined && to >= from ? { to } : {}),
    ...(more ? { truncated: true } : {}),
  };
}

/**
 * What a session's pending revert leaves the model: OpenCode's `revert` (set by /undo, kept until the next prompt
 * or an unrevert) names the message, and optionally the part, from which the conversation was undone; its files
 * were restored then, and the next prompt removes those messages for good (SessionRevert.cleanup). A session that
 * ends reverted is imported as the model would go on from it: the messages before the boundary, and with a part
 * named, the boundary message's parts before it. A boundary naming no message of the session undoes nothing.
 */
function afterRevert(
  r: Reader,
  info: Record<string, Json>,
  messages: readonly Json[],
): { readonly messages: number; readonly fromPart?: string } {
  const revert = objectOr(info['revert']);
  if (!revert) return { messages: messages.length };
  const messageID = r.string(revert['messageID'], ['info', 'revert', 'messageID']);
  const at = messages.findIndex((m) => objectOr(objectOr(m)?.['info'])?.['id'] === messageID);
  if (at < 0) return { messages: messages.length };
  const partID = revert['partID'];
  return typeof partID === 'string' ? { messages: at + 1, fromPart: partID } : { messages: at };
}

export async function importOpenCode(root: Json, r: Reader, b: TraceBuilder): Promise<void> {
  const top = r.object(root, []);
  const messages = r.array(top['messages'], ['messages']);
  const info =
    top['info'] && typeof top['info'] === 'object' && !Array.isArray(top['info'])
      ? (top['info'] as Record<string, Json>)
      : {};
  if (typeof info['version'] === 'string') b.formatVersion = `opencode ${info['version']}`;
  const kept = afterRevert(r, info, messages);
  for (const [i, raw] of messages.entries()) {
    if (i >= kept.messages) break;
    const path = ['messages', i];
    const m = r.object(raw, path);
    const info = r.object(m['info'], [...path, 'info']);
    const role = r.string(info['role'], [...path, 'info', 'role']);
    const created =
      info['time'] && typeof info['time'] === 'object' && !Array.isArray(info['time'])
        ? r.optNumber((info['time'] as Record<string, Json>)['created'], [...path, 'info', 'time', 'created'])
        : undefined;
    const parts = r.array(m['parts'], [...path, 'parts']);
    if (role === 'assistant') b.modelTurn();
    else if (role !== 'user') r.fail([...path, 'info', 'role'], `unknown role "${role}" (expected user or assistant)`);
    for (const [j, rawPart] of parts.entries()) {
      const ppath = [...path, 'parts', j];
      const part = r.object(rawPart, ppath);
      if (i === kept.messages - 1 && kept.fromPart !== undefined && part['id'] === kept.fromPart) break;
      const type = r.string(part['type'], [...ppath, 'type']);
      if (type === 'text') {
        const text = r.string(part['text'], [...ppath, 'text']);
        if (role === 'user') {
          if (part['synthetic'] === true)
            b.add({ origin: 'system', kind: 'instruction', content: text, time: created });
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
      const times =
        state['time'] && typeof state['time'] === 'object' && !Array.isArray(state['time'])
          ? (state['time'] as Record<string, Json>)
          : {};
      const start = r.optNumber(times['start'], [...ppath, 'state', 'time', 'start']) ?? created;
      const end = r.optNumber(times['end'], [...ppath, 'state', 'time', 'end']) ?? start;
      const tool = await agentTool(name, input);
      const recorded = { name: tool.name, sideEffect: tool.sideEffect, arguments: { ...input }, callId };
      const reading = tool.shell;
      const effects =
        tool.writes && tool.path
          ? [normalisePath(tool.path)]
          : reading
            ? reading.writes.map((w) => normalisePath(w))
            : [];
      b.add({
        origin: 'model',
        kind: 'tool-call',
        content: JSON.stringify({ tool: name, input }),
        time: start,
        tool: recorded,
        effects,
      });
      if (status === 'completed') {
        const output = r.string(state['output'], [...ppath, 'state', 'output']);
        const metadata =
          state['metadata'] && typeof state['metadata'] === 'object' && !Array.isArray(state['metadata'])
            ? (state['metadata'] as Record<string, Json>)
            : {};
        const exit = typeof metadata['exit'] === 'number' ? metadata['exit'] : undefined;
        const outcome = reading ? shellOutcome(reading, exit, output) : undefined;
        const st: Status = outcome ? outcome.status : { state: 'ok' };
        const selector =
          tool.writes || !tool.path ? undefined : reading ? reading.selector : readSelector(input, output);
        const source: Source | undefined =
          !tool.writes && tool.path
            ? {
                identity: normalisePath(tool.path),
                version: 'UNKNOWN',
                mutable: 'UNKNOWN',
                ...(selector ? { selector } : {}),
              }
            : undefined;
        b.settleEffects(callId, st.state === 'ok' ? (outcome?.running ? 'unknown' : 'succeeded') : 'failed');
        b.add({
          origin: 'environment',
          kind: 'tool-result',
          content: output,
          time: end,
          tool: recorded,
          status: st,
          ...(source ? { source } : {}),
          negativeResult: outcome ? outcome.negativeResult : tool.search && foundNothing(output),
          transientState: tool.transient || !!outcome?.running,
        });
      } else if (status === 'error') {
        const error = r.string(state['error'], [...ppath, 'state', 'error']);
        b.settleEffects(callId, 'failed');
        b.add({
          origin: 'environment',
          kind: 'tool-result',
          content: error,
          time: end,
          tool: recorded,
          status: {
            state: 'error',
            errorType: 'tool-error',
            message:
              error
                .split('\n')
                .find((l) => l.trim() !== '')
                ?.trim()
                .slice(0, 200) || 'tool error',
            fields: {},
            ...(error.trim() === '' ? { synthesized: true } : {}),
          },
        });
      } else if (status !== 'pending' && status !== 'running') {
        r.fail(
          [...ppath, 'state', 'status'],
          `unknown tool state "${status}" (expected pending, running, completed or error)`,
        );
      }
    }
  }
}
