// OpenHands sessions in three shapes: an event stream (the JSON list of serialized events a conversation's
// trajectory holds, or {"events": [...]}); an evaluation or resolver output record (one instance with its `history` of
// events, one per line of `output.jsonl`); and the legacy flattened events of older runs, where an action's fields sit
// beside `action` with no id, and the observation that answers it follows it. Actions carry `action`, `args`,
// `source` (agent, user, environment), `timestamp`; observations carry `observation`, `content`, `extras` and
// `cause`, the id of the action they answer. The system prompt (a `system` action) and recalled workspace context are
// the runtime's text; `think` is the model's reasoning (its "thought has been logged" acknowledgement carries
// nothing and is left out), as are internal events the model never reads (agent state changes, recall queries).
import type { ReadSelector, SideEffectClass, Source, Status } from '../fixture/schema.js';
import type { TraceBuilder } from './build.js';
import { clipped, editorRefusal, shownLines, viewRange } from './file-editor.js';
import { intOr, type Json, type JsonObject, type Reader } from './parse.js';
import { normalisePath, readShell, shellOutcome, shellReadSource, type ShellReading } from './shell.js';

const SKIPPED = new Set(['agent_state_changed', 'change_agent_state', 'null', 'recall']);
/** Fields of a legacy flattened event that are the event's, not the action's arguments. */
const EVENT_FIELDS = new Set([
  'action',
  'observation',
  'id',
  'timestamp',
  'source',
  'message',
  'cause',
  'tool_call_metadata',
  'llm_metrics',
  'timeout',
  'content',
  'extras',
]);

interface Call {
  readonly name: string;
  readonly sideEffect: SideEffectClass;
  readonly arguments: Record<string, unknown>;
  readonly callId: string;
  readonly action: string;
  readonly path?: string;
  readonly shell?: ShellReading;
  /** For a read: the view it asked for. */
  readonly selector?: ReadSelector;
}

/** The lines a read asked for: `view_range` (ACI editor), else `start`/`end` (0 and -1: the whole file). */
function readSelector(args: JsonObject): ReadSelector | undefined {
  const range = viewRange(args['view_range']);
  if (range) return range;
  const start = intOr(args['start']);
  const end = intOr(args['end']);
  if ((start === undefined || start <= 1) && (end === undefined || end === -1)) return undefined;
  const from = Math.max(1, start ?? 1);
  return end !== undefined && end !== -1
    ? end >= from
      ? { kind: 'lines', from, to: end }
      : undefined
    : { kind: 'lines', from };
}

async function toolFor(action: string, args: JsonObject, callId: string): Promise<Call> {
  // Every recorded argument but the thought, which is the call's text: old_str, new_str, file_text, insert_line,
  // view_range, start/end all stay.
  const { thought: _thought, ...rest } = args;
  const path = typeof args['path'] === 'string' && args['path'] !== '' ? args['path'] : undefined;
  const at = path ? { path } : {};
  if (action === 'run') {
    const command = typeof args['command'] === 'string' ? args['command'] : '';
    const shell = await readShell(command);
    return {
      name: shell.kind === 'read' ? 'shell.read' : 'shell.exec',
      sideEffect: shell.sideEffect,
      arguments: rest,
      callId,
      action,
      shell,
    };
  }
  if (action === 'read') {
    const selector = readSelector(args);
    return {
      name: 'read',
      sideEffect: 'read-mutable',
      arguments: rest,
      callId,
      action,
      ...at,
      ...(selector ? { selector } : {}),
    };
  }
  if (action === 'edit' || action === 'write')
    return { name: action, sideEffect: 'non-idempotent', arguments: rest, callId, action, ...at };
  if (action === 'browse' || action === 'browse_interactive')
    return { name: action, sideEffect: 'read-mutable', arguments: rest, callId, action };
  if (action === 'run_ipython')
    return { name: 'ipython', sideEffect: 'non-idempotent', arguments: rest, callId, action };
  return { name: action, sideEffect: 'non-idempotent', arguments: rest, callId, action };
}

/** What a call's text shows the model: its thought, then what it runs. */
function callText(action: string, args: JsonObject, message: string): string {
  const thought = typeof args['thought'] === 'string' ? args['thought'] : '';
  const shown =
    typeof args['command'] === 'string' && action === 'run'
      ? args['command']
      : typeof args['code'] === 'string'
        ? args['code']
        : message !== ''
          ? message
          : JSON.stringify(args);
  return thought ? `${thought}\n${shown}` : shown;
}

function observationStatus(
  observation: string,
  content: string,
  call: Call,
  exit: number | undefined,
): { status: Status; negative: boolean; running: boolean } {
  if (observation === 'error') {
    const line =
      content
        .split('\n')
        .find((l) => l.trim() !== '' && l.trim() !== 'ERROR:')
        ?.trim() ?? 'error';
    return {
      status: { state: 'error', errorType: 'error-observation', message: line.slice(0, 200), fields: {} },
      negative: false,
      running: false,
    };
  }
  if (call.shell) {
    const o = shellOutcome(call.shell, exit, content);
    return { status: o.status, negative: o.negativeResult, running: o.running };
  }
  if (call.action === 'edit' || call.action === 'write' || call.action === 'read') {
    const refusal = editorRefusal(content);
    if (refusal)
      return {
        status: {
          state: 'error',
          errorType: call.action === 'read' ? 'read-failed' : 'edit-failed',
          message: refusal,
          fields: {},
        },
        negative: false,
        running: false,
      };
  }
  if (call.action === 'run_ipython') {
    const tb =
      /Traceback \(most recent call last\)[\s\S]*?\n(\w+(?:\.\w+)*(?:Error|Exception)[^\n]*)/.exec(content) ??
      /^(\w+(?:Error|Exception): [^\n]*)$/m.exec(content);
    if (tb)
      return {
        status: { state: 'error', errorType: 'exception', message: tb[1]!.trim().slice(0, 200), fields: {} },
        negative: false,
        running: false,
      };
  }
  return { status: { state: 'ok' }, negative: false, running: false };
}

function sourceOf(call: Call, content: string): Source | undefined {
  const cut = clipped(content) ? { truncated: true } : {};
  if (call.action === 'read' && call.path) {
    if (/^Here's the files and directories/.test(content))
      return {
        identity: normalisePath(call.path),
        version: 'UNKNOWN',
        mutable: 'UNKNOWN',
        selector: { kind: 'listing', query: call.path, ...cut },
      };
    // The legacy read shows numbered lines: what it shows is what the selector states, when it states less than whole.
    const shown = call.selector
      ? undefined
      : /^\[File: [^\n]*\(\d+ lines total\)\]/.test(content)
        ? shownLines(content)
        : undefined;
    const selector: ReadSelector | undefined = call.selector
      ? { ...call.selector, ...cut }
      : shown && shown.from > 1
        ? { kind: 'lines', ...shown }
        : clipped(content)
          ? { kind: 'whole', truncated: true }
          : undefined;
    return {
      identity: normalisePath(call.path),
      version: 'UNKNOWN',
      mutable: 'UNKNOWN',
      ...(selector ? { selector } : {}),
    };
  }
  return shellReadSource(call.shell);
}

function effectsOf(call: Call): string[] {
  if ((call.action === 'edit' || call.action === 'write') && call.path) return [normalisePath(call.path)];
  return call.shell ? call.shell.writes.map((w) => normalisePath(w)) : [];
}

/** The events of one session and the JSON path they sit at. */
function eventsOf(root: Json, r: Reader): { events: Json[]; base: (string | number)[]; version: string } {
  if (Array.isArray(root)) return { events: root, base: [], version: 'event stream' };
  const top = r.object(root, []);
  if (Array.isArray(top['history'])) return { events: top['history'], base: ['history'], version: 'evaluation output' };
  return { events: r.array(top['events'], ['events']), base: ['events'], version: 'event stream' };
}

export async function importOpenHands(root: Json, r: Reader, b: TraceBuilder): Promise<void> {
  const { events, base, version } = eventsOf(root, r);
  const legacy = events.every((e) => e !== null && typeof e === 'object' && !Array.isArray(e) && !('id' in e));
  b.formatVersion = legacy ? `${version}, legacy flattened events` : version;
  const calls = new Map<number, Call>();
  /** Legacy events name no cause: an observation answers the latest action still unanswered. */
  let unanswered: Call | undefined;
  let modelActed = false;
  for (const [i, raw] of events.entries()) {
    const path = [...base, i];
    const e = r.object(raw, path);
    const time = r.optString(e['timestamp'], [...path, 'timestamp']);
    const message = typeof e['message'] === 'string' ? e['message'] : '';
    if (typeof e['action'] === 'string') {
      const action = e['action'];
      if (SKIPPED.has(action)) continue;
      const args: JsonObject =
        e['args'] === undefined
          ? legacy
            ? Object.fromEntries(Object.entries(e).filter(([k]) => !EVENT_FIELDS.has(k) || k === 'content'))
            : {}
          : r.object(e['args'], [...path, 'args']);
      const id = legacy
        ? i
        : typeof e['id'] === 'number'
          ? e['id']
          : r.fail([...path, 'id'], 'expected the event id, a number');
      const source =
        r.optString(e['source'], [...path, 'source']) ??
        (legacy && action === 'message' && !modelActed ? 'user' : 'agent');
      if (action === 'system') {
        b.add({
          origin: 'system',
          kind: 'instruction',
          content: r.string(args['content'] ?? e['message'] ?? '', [...path, 'args', 'content']),
          time,
        });
        continue;
      }
      if (action === 'message') {
        const content = r.string(args['content'] ?? e['message'] ?? '', [...path, 'args', 'content']);
        if (source === 'user') b.userInstruction(content, time);
        else {
          b.modelTurn();
          modelActed = true;
          b.add({ origin: 'model', kind: 'reasoning', content, time });
        }
        continue;
      }
      b.modelTurn();
      modelActed = true;
      if (action === 'think' || action === 'finish') {
        const text =
          [args['thought'], args['final_thought'], message].find(
            (t): t is string => typeof t === 'string' && t !== '',
          ) ?? '';
        b.add({ origin: 'model', kind: 'reasoning', content: text, time });
        unanswered = undefined;
        continue;
      }
      const call = await toolFor(action, args, `ev-${id}`);
      calls.set(id, call);
      unanswered = call;
      b.add({
        origin: 'model',
        kind: 'tool-call',
        content: callText(action, args, message),
        time,
        tool: { name: call.name, sideEffect: call.sideEffect, arguments: call.arguments, callId: call.callId },
        effects: effectsOf(call),
      });
    } else if (typeof e['observation'] === 'string') {
      const observation = e['observation'];
      const content = r.string(e['content'] ?? '', [...path, 'content']);
      if (observation === 'recall') {
        if (content.trim() !== '') b.add({ origin: 'system', kind: 'instruction', content, time });
        continue;
      }
      if (SKIPPED.has(observation) || observation === 'think') continue;
      const cause = r.optNumber(e['cause'], [...path, 'cause']);
      const call = legacy ? unanswered : cause === undefined ? undefined : calls.get(cause);
      unanswered = undefined;
      if (!call) {
        // An observation no recorded action caused (a user-side error, a runtime notice): the runtime speaking.
        b.add({ origin: 'system', kind: 'instruction', content, time });
        continue;
      }
      const extras =
        e['extras'] === undefined || e['extras'] === null ? {} : r.object(e['extras'], [...path, 'extras']);
      const metadata =
        extras['metadata'] && typeof extras['metadata'] === 'object' && !Array.isArray(extras['metadata'])
          ? (extras['metadata'] as JsonObject)
          : {};
      const exit = intOr(metadata['exit_code']) ?? intOr(extras['exit_code']) ?? intOr(e['exit_code']);
      const { status, negative, running } = observationStatus(observation, content, call, exit);
      // A read that failed showed nothing of its source.
      const src = status.state === 'ok' ? sourceOf(call, content) : undefined;
      b.settleEffects(call.callId, running ? 'unknown' : status.state === 'ok' ? 'succeeded' : 'failed');
      b.add({
        origin: 'environment',
        kind: 'tool-result',
        content,
        time,
        tool: { name: call.name, sideEffect: call.sideEffect, arguments: call.arguments, callId: call.callId },
        status,
        ...(src ? { source: src } : {}),
        // A command still running showed a moment of its output, not its result.
        negativeResult: negative,
        transientState: running || !!call.shell?.transient,
      });
    }
  }
}
