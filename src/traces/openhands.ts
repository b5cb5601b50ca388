// OpenHands sessions in three shapes: an event stream (the JSON list of serialized events a conversation's
// trajectory holds, or {"events": [...]}); an evaluation or resolver output record (one instance with its `history` of
// events, one per line of `output.jsonl`); and the legacy flattened events of older runs, where an action's fields sit
// beside `action` with no id, and the observation that answers it follows it. Actions carry `action`, `args`,
// `source` (agent, user, environment), `timestamp`; observations carry `observation`, `content`, `extras` and
// `cause`, the id of the action they answer. The system prompt (a `system` action) and recalled workspace context are
// the runtime's text; `think` is the model's reasoning (its "thought has been logged" acknowledgement carries
// nothing and is left out), as are internal events the model never reads (agent state changes, recall queries).
// A condensation (`condensation` action) ends the model's context, as in the V1 importer: what follows is another
// session that starts from the view it left; a `condensation_request` is not sent to the model.
import type { ReadSelector, SideEffectClass, Source, Status } from '../fixture/schema.js';
import { CondensedSessions, type TraceBuilder } from './build.js';
import { clipped, editorRefusal, shownLines, viewRange } from './file-editor.js';
import { intOr, type Json, type JsonObject, type Reader } from './parse.js';
import { normalisePath, readShell, readSource, shellOutcome, shellReadSource, type ShellReading } from './shell.js';

const SKIPPED = new Set(['agent_state_changed', 'change_agent_state', 'null', 'recall']);
/** Events the controller leaves out of the agent's history (`StateTracker.agent_history_filter`). */
const NOT_IN_HISTORY = new Set(['agent_state_changed', 'change_agent_state', 'null']);
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
      return readSource(call.path, { kind: 'listing', query: call.path, ...cut });
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
    return readSource(call.path, selector);
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

/** One session being built: the calls its view holds, and where a legacy stream's answer goes. */
class Session {
  readonly calls = new Map<number, Call>();
  /** Legacy events name no cause: an observation answers the latest action still unanswered. */
  private unanswered: Call | undefined;
  private modelActed = false;

  constructor(
    readonly b: TraceBuilder,
    private readonly r: Reader,
    private readonly legacy: boolean,
  ) {}

  /** The event at `path`, the `index`-th of its stream (a legacy event's id). */
  async event(e: JsonObject, path: (string | number)[], index: number): Promise<void> {
    const { b, r, legacy } = this;
    const time = r.optString(e['timestamp'], [...path, 'timestamp']);
    const message = typeof e['message'] === 'string' ? e['message'] : '';
    if (typeof e['action'] === 'string') {
      const action = e['action'];
      if (SKIPPED.has(action)) return;
      const args: JsonObject =
        e['args'] === undefined
          ? legacy
            ? Object.fromEntries(Object.entries(e).filter(([k]) => !EVENT_FIELDS.has(k) || k === 'content'))
            : {}
          : r.object(e['args'], [...path, 'args']);
      const id = legacy
        ? index
        : typeof e['id'] === 'number'
          ? e['id']
          : r.fail([...path, 'id'], 'expected the event id, a number');
      const source =
        r.optString(e['source'], [...path, 'source']) ??
        (legacy && action === 'message' && !this.modelActed ? 'user' : 'agent');
      if (action === 'system') {
        b.add({
          origin: 'system',
          kind: 'instruction',
          content: r.string(args['content'] ?? e['message'] ?? '', [...path, 'args', 'content']),
          time,
        });
        return;
      }
      if (action === 'message') {
        const content = r.string(args['content'] ?? e['message'] ?? '', [...path, 'args', 'content']);
        if (source === 'user') b.userInstruction(content, time);
        else {
          b.modelTurn();
          this.modelActed = true;
          b.add({ origin: 'model', kind: 'reasoning', content, time });
        }
        return;
      }
      b.modelTurn();
      this.modelActed = true;
      if (action === 'think' || action === 'finish') {
        const text =
          [args['thought'], args['final_thought'], message].find(
            (t): t is string => typeof t === 'string' && t !== '',
          ) ?? '';
        b.add({ origin: 'model', kind: 'reasoning', content: text, time });
        this.unanswered = undefined;
        return;
      }
      const call = await toolFor(action, args, `ev-${id}`);
      this.calls.set(id, call);
      this.unanswered = call;
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
        return;
      }
      if (SKIPPED.has(observation) || observation === 'think') return;
      const cause = r.optNumber(e['cause'], [...path, 'cause']);
      const call = legacy ? this.unanswered : cause === undefined ? undefined : this.calls.get(cause);
      this.unanswered = undefined;
      if (!call) {
        // An observation no recorded action caused (a user-side error, a runtime notice, a condensation's summary):
        // the runtime speaking.
        b.add({ origin: 'system', kind: 'instruction', content, time });
        return;
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

/** An event of the agent's history, with where it was read (a condensation's summary: the condensation's args). */
interface Viewed {
  readonly id: number | undefined;
  readonly event: JsonObject;
  readonly path: (string | number)[];
  readonly index: number;
}

/** The events a condensation forgets (`CondensationAction.forgotten`): its id list, else its inclusive id range. */
function forgottenBy(args: JsonObject, path: (string | number)[], r: Reader): (id: number) => boolean {
  const ids = args['forgotten_event_ids'];
  if (ids !== undefined && ids !== null) {
    const set = new Set(
      r.array(ids, [...path, 'args', 'forgotten_event_ids']).filter((x): x is number => typeof x === 'number'),
    );
    return (id) => set.has(id);
  }
  const from = r.optNumber(args['forgotten_events_start_id'], [...path, 'args', 'forgotten_events_start_id']);
  const to = r.optNumber(args['forgotten_events_end_id'], [...path, 'args', 'forgotten_events_end_id']);
  return (id) => from !== undefined && to !== undefined && id >= from && id <= to;
}

const isUserMessage = (v: Viewed | undefined): boolean =>
  v !== undefined && v.event['action'] === 'message' && v.event['source'] === 'user';

/**
 * The first user message put back where `ConversationMemory._ensure_initial_user_message` puts it: second, after the
 * system message, unless a user message already stands there (any user message, not only the first). A stream
 * recorded before the system prompt was an event has none in the view: OpenHands puts its own first, which the
 * record does not hold, so the user message goes first here.
 */
function withInitialUserMessage(view: Viewed[], history: readonly Viewed[]): Viewed[] {
  const initial = history.find(isUserMessage);
  const at = view.some((v) => v.event['action'] === 'system') ? 1 : 0;
  if (!initial || isUserMessage(view[at])) return view;
  return [...view.slice(0, at), initial, ...view.slice(at)];
}

/** Actions `ConversationMemory._process_action` holds back as calls until every call of their response is answered. */
const TOOL_CALL_ACTIONS = new Set([
  'run',
  'run_ipython',
  'edit',
  'read',
  'browse',
  'browse_interactive',
  'call_tool_mcp',
  'delegate',
  'think',
  'task_tracking',
]);

const asObject = (v: unknown): JsonObject | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as JsonObject) : undefined;

/** A function call's `tool_call_metadata`: its id, and the model response it came in with that response's calls. */
function toolCallOf(e: JsonObject): { id: string; response: string; calls: string[] } | undefined {
  const metadata = asObject(e['tool_call_metadata']);
  const id = metadata?.['tool_call_id'];
  if (typeof id !== 'string') return undefined;
  const response = asObject(metadata?.['model_response']);
  const choices = response?.['choices'];
  const toolCalls = Array.isArray(choices) ? asObject(asObject(choices[0])?.['message'])?.['tool_calls'] : undefined;
  const calls = Array.isArray(toolCalls)
    ? toolCalls.map((c) => asObject(c)?.['id']).filter((c): c is string => typeof c === 'string')
    : [];
  return {
    id,
    // Without the response, the call is a response of its own.
    response: typeof response?.['id'] === 'string' ? response['id'] : `call ${id}`,
    calls: calls.includes(id) ? calls : [id],
  };
}

/** The function call an action is, when `ConversationMemory._process_action` holds it back as one. */
function heldCall(v: Viewed): ReturnType<typeof toolCallOf> {
  const action = v.event['action'];
  if (typeof action !== 'string' || !TOOL_CALL_ACTIONS.has(action)) return undefined;
  // A command the user ran is a user message.
  if (action === 'run' && v.event['source'] === 'user') return undefined;
  return toolCallOf(v.event);
}

/**
 * The function calls the model saw in a condensed view, as `ConversationMemory.process_events` pairs them: a model
 * response goes out, with every call it made, once each of its calls has its result in the view, and a result goes
 * out only with its response. So a call whose result was forgotten is dropped with its whole response, and a result
 * whose response never goes out (its call forgotten) is dropped. A call the condensation forgot still goes out when
 * another call of its response was kept and every result is there, since the response carries it: it is put back
 * before the first of its response's events. Events without `tool_call_metadata` (a command the user ran, an error
 * the runtime raised, a stream recorded without function calling) are messages OpenHands never pairs.
 */
function pairedCalls(view: Viewed[], history: readonly Viewed[]): Viewed[] {
  const actionOf = new Map<string, Viewed>();
  const responseOf = new Map<string, string>();
  for (const h of history) {
    const call = heldCall(h);
    if (call && !actionOf.has(call.id)) {
      actionOf.set(call.id, h);
      responseOf.set(call.id, call.response);
    }
  }
  const resultOf = (v: Viewed) => (typeof v.event['observation'] === 'string' ? toolCallOf(v.event) : undefined);
  // What went out: each response with its calls, and the results that went with them.
  const pending = new Map<string, string[]>();
  const answers = new Map<string, Viewed>();
  const sent = new Map<string, string[]>();
  const sentResults = new Set<Viewed>();
  for (const v of view) {
    const call = heldCall(v);
    if (call) pending.set(call.response, call.calls);
    const result = resultOf(v);
    if (result) answers.set(result.id, v);
    for (const [response, calls] of pending) {
      if (!calls.every((c) => answers.has(c))) continue;
      for (const c of calls) {
        sentResults.add(answers.get(c)!);
        answers.delete(c);
      }
      sent.set(response, calls);
      pending.delete(response);
    }
  }
  const kept = view.filter((v) => {
    const call = heldCall(v);
    if (call) return sent.has(call.response);
    return resultOf(v) === undefined || sentResults.has(v);
  });
  const present = new Set(kept);
  const out: Viewed[] = [];
  for (const v of kept) {
    const own = heldCall(v) ?? resultOf(v);
    const calls = own && sent.get(responseOf.get(own.id) ?? own.response);
    for (const c of calls ?? []) {
      const action = actionOf.get(c);
      if (action && !present.has(action)) {
        present.add(action);
        out.push(action);
      }
    }
    out.push(v);
  }
  return out;
}

/** The condensed view as `ConversationMemory.process_events` sends it (openhands/memory/conversation_memory.py). */
function asSent(view: Viewed[], history: readonly Viewed[]): Viewed[] {
  return pairedCalls(withInitialUserMessage(view, history), history);
}

/**
 * The sessions of a V0 conversation: the context the model had until the first condensation, then one more per
 * condensation, `after-condensation-N`, each starting from the view that condensation left and carrying the task on.
 * The view is OpenHands' (`View.from_events`, openhands/memory/view.py): the agent's history (every event but null
 * events and agent state changes, which the controller never adds to it) less every event any condensation forgot,
 * the condensations and condensation requests among them, with the summary of the latest condensation that has one
 * inserted at its `summary_offset` as an `AgentCondensationObservation` (observation `condense`), which the runtime
 * sends as a message of its own. The model then received that view as `ConversationMemory.process_events` made it
 * (`asSent`).
 */
export async function importOpenHands(root: Json, r: Reader, open: (session?: string) => TraceBuilder): Promise<void> {
  const { events, base, version } = eventsOf(root, r);
  const legacy = events.every((e) => e !== null && typeof e === 'object' && !Array.isArray(e) && !('id' in e));
  const sessions = new CondensedSessions(open, (b) => new Session(b, r, legacy));
  sessions.current.b.formatVersion = legacy ? `${version}, legacy flattened events` : version;
  /** The agent's history so far, and what the condensations so far forgot of it. */
  const history: Viewed[] = [];
  const forgotten: ((id: number) => boolean)[] = [];
  let summary: { text: string; offset: number; path: (string | number)[] } | undefined;
  for (const [index, raw] of events.entries()) {
    const path = [...base, index];
    const e = r.object(raw, path);
    const action = e['action'];
    // A condensation request asks the condenser for one; neither it nor a condensation is sent to the model. Legacy
    // streams, which have no event ids, predate both.
    if (action === 'condensation_request') continue;
    if (action === 'condensation') {
      if (legacy) continue;
      const args = e['args'] === undefined ? {} : r.object(e['args'], [...path, 'args']);
      forgotten.push(forgottenBy(args, path, r));
      const text = r.optString(args['summary'], [...path, 'args', 'summary']);
      const offset = r.optNumber(args['summary_offset'], [...path, 'args', 'summary_offset']);
      if (text !== undefined && offset !== undefined) summary = { text, offset, path: [...path, 'args', 'summary'] };
      const view = history.filter((v) => v.id === undefined || !forgotten.some((f) => f(v.id!)));
      // Without a time of its own, the summary takes its neighbour's.
      if (summary)
        view.splice(summary.offset, 0, {
          id: undefined,
          event: { observation: 'condense', content: summary.text },
          path: summary.path,
          index,
        });
      await sessions.condensed(asSent(view, history), (session, v) => session.event(v.event, v.path, v.index));
      continue;
    }
    const kind = typeof action === 'string' ? action : e['observation'];
    if (!legacy && typeof kind === 'string' && !NOT_IN_HISTORY.has(kind))
      history.push({ id: typeof e['id'] === 'number' ? e['id'] : undefined, event: e, path, index });
    await sessions.current.event(e, path, index);
  }
}
