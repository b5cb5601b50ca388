// OpenHands V1 (the software-agent-sdk, OpenHands 1.x) writes a conversation as one JSON event per file
// (`~/.openhands/conversations/<id>/events/event-NNNNN-<id>.json`); read here as a JSON list of those events, or
// {"events": [...]}. Every event has `kind` (its class name), `id`, `timestamp` and `source` (user, agent,
// environment, hook). What the model is sent is the `View` the SDK builds from them (openhands-sdk
// `context/view/view.py`): the LLM-convertible events in order (SystemPromptEvent, MessageEvent, ActionEvent,
// ObservationEvent, UserRejectObservation, AgentErrorEvent, CondensationSummaryEvent); state updates, pauses, hooks,
// token and log events never reach it and are skipped. A `Condensation` drops `forgotten_event_ids` from the view and
// inserts its `summary` at `summary_offset`: the model's context ends there, as at a Claude Code compaction, and what
// follows is another session that starts from the view the condensation left. Before the view goes out, `from_events`
// enforces the view's properties (`context/view/properties/`), dropping events until none is violated; see `enforced`.
// Tool results changed shape in November 2025 (openhands-sdk `tool/schema.py`): `content` blocks and `is_error`,
// where earlier observations had `output` and `error`; both are read.
import type { ContentBlock, ReadSelector, SideEffectClass, Source, Status } from '../fixture/schema.js';
import { CondensedSessions, type TraceBuilder } from './build.js';
import { imageUrlBlock } from './image-url.js';
import { clipped, editorCall, editorRefusal, type EditorCall } from './file-editor.js';
import { intOr, objectOr, type Json, type JsonObject, type Reader } from './parse.js';
import { normalisePath, readShell, readSource, shellOutcome, shellReadSource, type ShellReading } from './shell.js';

/** The events the SDK turns into LLM messages (`LLMConvertibleEvent` subclasses); every other kind stays out of the view. */
const IN_VIEW = new Set([
  'SystemPromptEvent',
  'MessageEvent',
  'ActionEvent',
  'ObservationEvent',
  'UserRejectObservation',
  'AgentErrorEvent',
  'CondensationSummaryEvent',
]);
const SHELL_TOOLS = new Set(['terminal', 'execute_bash', 'bash']);
const SHELL_ACTIONS = new Set(['TerminalAction', 'ExecuteBashAction']);
const EDITOR_TOOLS = new Set(['file_editor', 'str_replace_editor', 'planning_file_editor']);
const EDITOR_ACTIONS = new Set(['FileEditorAction', 'StrReplaceEditorAction', 'PlanningFileEditorAction']);
const SEARCH_TOOLS = new Set(['grep', 'glob']);
/** Tools that act on nothing outside the conversation: the model logs a thought or ends its turn. */
const PURE_TOOLS = new Set(['think', 'finish']);
/** What `Observation.to_llm_content` puts before an error result, after the November 2025 change and before it. */
const ERROR_HEADER = '[An error occurred during execution.]\n';
const LEGACY_SHELL_ERROR_HEADER = '[There was an error during command execution.]\n';

const isObject = (v: Json | undefined): v is JsonObject => objectOr(v) !== undefined;

/** The events of a V1 conversation, when the value is one: every event names its `kind`, some are sent to the model. */
export function openHandsV1Events(v: Json): Json[] | undefined {
  const events = Array.isArray(v) ? v : isObject(v) && Array.isArray(v['events']) ? v['events'] : undefined;
  if (!events || events.length === 0) return undefined;
  const typed = events.every((e) => isObject(e) && typeof e['kind'] === 'string');
  return typed && events.some((e) => IN_VIEW.has((e as JsonObject)['kind'] as string)) ? events : undefined;
}

interface Call {
  readonly name: string;
  readonly sideEffect: SideEffectClass;
  readonly arguments: Record<string, unknown>;
  readonly callId: string;
  readonly shell?: ShellReading;
  /** Input typed into a running process (`is_input`, or an empty command that shows more of its output). */
  readonly input?: boolean;
  readonly editor?: EditorCall;
  readonly search?: boolean;
}

/** A message's or observation's content: a string, or text and image blocks (`TextContent`, `ImageContent`). */
function contentOf(
  r: Reader,
  v: Json | undefined,
  path: (string | number)[],
  join: string,
): { text: string; images: ContentBlock[] } {
  if (typeof v === 'string') return { text: v, images: [] };
  if (v === undefined || v === null) return { text: '', images: [] };
  const texts: string[] = [];
  const images: ContentBlock[] = [];
  for (const [i, raw] of r.array(v, path).entries()) {
    const block = r.object(raw, [...path, i]);
    if (block['type'] === 'image' && Array.isArray(block['image_urls'])) {
      for (const url of block['image_urls']) {
        if (typeof url === 'string') images.push(imageUrlBlock(url));
      }
    } else if (typeof block['text'] === 'string') texts.push(block['text']);
  }
  return { text: texts.join(join), images };
}

async function callFor(
  action: JsonObject | undefined,
  toolName: string,
  args: JsonObject,
  callId: string,
): Promise<Call> {
  const kind = typeof action?.['kind'] === 'string' ? action['kind'] : '';
  const base = { arguments: { ...args }, callId };
  if (SHELL_ACTIONS.has(kind) || (kind === '' && SHELL_TOOLS.has(toolName))) {
    const command = typeof args['command'] === 'string' ? args['command'] : '';
    // Keys sent to a running process (C-c, y) or an empty command that waits for more output are no shell command.
    if (args['is_input'] === true || command === '')
      return { ...base, name: 'shell.input', sideEffect: 'non-idempotent', input: true };
    const shell = await readShell(command);
    return { ...base, name: shell.kind === 'read' ? 'shell.read' : 'shell.exec', sideEffect: shell.sideEffect, shell };
  }
  if (EDITOR_ACTIONS.has(kind) || (kind === '' && EDITOR_TOOLS.has(toolName))) {
    const editor = editorCall(args);
    return {
      ...base,
      name: toolName,
      sideEffect: editor.kind === 'read' ? 'read-mutable' : 'non-idempotent',
      editor,
    };
  }
  if (SEARCH_TOOLS.has(toolName)) return { ...base, name: toolName, sideEffect: 'read-mutable', search: true };
  if (PURE_TOOLS.has(toolName)) return { ...base, name: toolName, sideEffect: 'pure' };
  return { ...base, name: toolName, sideEffect: 'non-idempotent' };
}

/** The arguments the model sent (`tool_call.arguments`, a JSON string), parsed when they are a JSON object. */
function sentArguments(raw: Json | undefined): JsonObject | undefined {
  if (typeof raw !== 'string') return undefined;
  try {
    return objectOr(JSON.parse(raw) as Json);
  } catch {
    return undefined;
  }
}

const firstLine = (text: string): string | undefined =>
  text
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '')
    ?.slice(0, 200);

/**
 * What a terminal result shows the model (`TerminalObservation.to_llm_content`, the same before and after the
 * November 2025 change): the output between the recorded prefix and suffix, then the working directory, the
 * interpreter and the exit code the metadata holds.
 */
function terminalText(raw: string, metadata: JsonObject | undefined): string {
  if (!metadata) return raw;
  const str = (k: string) => (typeof metadata[k] === 'string' ? (metadata[k] as string) : '');
  let text = `${str('prefix')}${raw}${str('suffix')}`;
  if (str('working_dir')) text += `\n[Current working directory: ${str('working_dir')}]`;
  if (str('py_interpreter_path')) text += `\n[Python interpreter: ${str('py_interpreter_path')}]`;
  const exit = intOr(metadata['exit_code']) ?? -1;
  if (exit !== -1) text += `\n[Command finished with exit code ${exit}]`;
  return text;
}

function sourceOf(call: Call, text: string): Source | undefined {
  const cut = clipped(text) ? { truncated: true } : {};
  const path = call.editor?.kind === 'read' ? call.editor.path : undefined;
  if (path) {
    if (/^Here's the files and directories/.test(text))
      return readSource(path, { kind: 'listing', query: path, ...cut });
    const selector: ReadSelector | undefined = call.editor?.selector
      ? { ...call.editor.selector, ...cut }
      : clipped(text)
        ? { kind: 'whole', truncated: true }
        : undefined;
    return readSource(path, selector);
  }
  return shellReadSource(call.shell);
}

function effectsOf(call: Call): string[] {
  if (call.editor?.kind === 'write' && call.editor.path) return [normalisePath(call.editor.path)];
  return call.shell ? [...new Set(call.shell.writes.map((w) => normalisePath(w)))] : [];
}

/** One session being built: the calls its view holds and the LLM response the last model turn came from. */
class Session {
  readonly calls = new Map<string, Call>();
  private response: string | undefined;

  constructor(
    readonly b: TraceBuilder,
    private readonly r: Reader,
  ) {}

  /** Model output from one LLM response is one turn: the actions of a parallel call share its `llm_response_id`. */
  private turn(responseId: string | undefined): void {
    if (responseId === undefined || responseId !== this.response) this.b.modelTurn();
    this.response = responseId;
  }

  async event(e: JsonObject, path: (string | number)[]): Promise<void> {
    const { b, r } = this;
    const kind = e['kind'];
    const time = r.optString(e['timestamp'], [...path, 'timestamp']);
    const source = r.optString(e['source'], [...path, 'source']);
    if (kind === 'SystemPromptEvent') {
      // Sent as one system message: the static prompt, then the per-conversation context when there is one.
      const prompt = r.object(e['system_prompt'], [...path, 'system_prompt']);
      const dynamic = objectOr(e['dynamic_context']);
      const texts = [r.string(prompt['text'], [...path, 'system_prompt', 'text'])];
      if (dynamic) texts.push(r.string(dynamic['text'], [...path, 'dynamic_context', 'text']));
      b.add({ origin: 'system', kind: 'instruction', content: texts.join('\n'), time });
      return;
    }
    if (kind === 'CondensationSummaryEvent') {
      b.add({
        origin: 'system',
        kind: 'instruction',
        content: r.string(e['summary'], [...path, 'summary']),
        time,
      });
      return;
    }
    if (kind === 'MessageEvent') {
      const message = r.object(e['llm_message'], [...path, 'llm_message']);
      const { text, images } = contentOf(r, message['content'], [...path, 'llm_message', 'content'], '\n');
      if (source === 'agent') {
        this.turn(r.optString(e['llm_response_id'], [...path, 'llm_response_id']));
        if (text !== '') b.add({ origin: 'model', kind: 'reasoning', content: text, time });
      } else {
        const origin = source === 'user' ? 'user' : 'system';
        if (origin === 'user') b.userInstruction(text, time);
        else b.add({ origin, kind: 'instruction', content: text, time });
        // An image the person attached: the model saw it, carried by its hash.
        if (images.length > 0) b.add({ origin, kind: 'instruction', content: '', blocks: images, time });
      }
      // Skills and agent context the runtime appended to the message: its text, not the speaker's.
      const extended = contentOf(r, e['extended_content'], [...path, 'extended_content'], '\n').text;
      if (extended !== '') b.add({ origin: 'system', kind: 'instruction', content: extended, time });
      return;
    }
    if (kind === 'ActionEvent') {
      this.turn(r.optString(e['llm_response_id'], [...path, 'llm_response_id']));
      const callId = r.string(e['tool_call_id'], [...path, 'tool_call_id']);
      const toolName = r.string(e['tool_name'], [...path, 'tool_name']);
      // The text the model wrote beside its call (only the first action of a parallel batch carries it).
      const thought = contentOf(r, e['thought'], [...path, 'thought'], '\n').text;
      if (thought !== '') b.add({ origin: 'model', kind: 'reasoning', content: thought, time });
      const toolCall = objectOr(e['tool_call']);
      const sent = sentArguments(toolCall?.['arguments']);
      // `action` is null when the call could not be run (an unknown tool, arguments that failed validation).
      const action =
        e['action'] === null || e['action'] === undefined ? undefined : r.object(e['action'], [...path, 'action']);
      const { kind: _kind, ...args } = action ?? sent ?? {};
      const call = await callFor(action, toolName, args, callId);
      this.calls.set(callId, call);
      b.add({
        origin: 'model',
        kind: 'tool-call',
        content: JSON.stringify({
          name: typeof toolCall?.['name'] === 'string' ? toolCall['name'] : toolName,
          arguments: sent ?? toolCall?.['arguments'] ?? args,
        }),
        time,
        tool: { name: call.name, sideEffect: call.sideEffect, arguments: call.arguments, callId },
        effects: effectsOf(call),
      });
      return;
    }
    if (kind === 'ObservationEvent' || kind === 'AgentErrorEvent' || kind === 'UserRejectObservation') {
      const callId = r.string(e['tool_call_id'], [...path, 'tool_call_id']);
      // `enforced` left only results whose call is in the view, one per call.
      const call = this.calls.get(callId);
      if (!call) return;
      const result = kind === 'ObservationEvent' ? this.observation(e, path, call) : this.refusal(e, path, kind);
      b.settleEffects(callId, result.running ? 'unknown' : result.status.state === 'ok' ? 'succeeded' : 'failed');
      b.add({
        origin: 'environment',
        kind: 'tool-result',
        content: result.content,
        ...(result.images.length > 0 ? { blocks: [{ type: 'text', text: result.content }, ...result.images] } : {}),
        time,
        tool: { name: call.name, sideEffect: call.sideEffect, arguments: call.arguments, callId },
        status: result.status,
        ...(result.source ? { source: result.source } : {}),
        negativeResult: result.negative,
        // A command still running showed a moment of its output, not its result.
        transientState: result.running || !!call.input || !!call.shell?.transient,
      });
    }
  }

  /** A call that never ran: the scaffold's error (`AgentErrorEvent`) or a rejection by the user or a hook. */
  private refusal(e: JsonObject, path: (string | number)[], kind: string): Result {
    const { r } = this;
    const agentError = kind === 'AgentErrorEvent';
    const reason = agentError
      ? r.string(e['error'], [...path, 'error'])
      : (r.optString(e['rejection_reason'], [...path, 'rejection_reason']) ?? 'User rejected the action');
    const message = firstLine(reason);
    return {
      // What `to_llm_message` sends: the error as it is, a rejection after its label.
      content: agentError ? reason : `Action rejected: ${reason}`,
      images: [],
      status: {
        state: 'error',
        errorType: agentError ? 'agent-error' : 'rejected',
        message: message ?? (agentError ? 'agent error' : 'rejected'),
        fields: {},
        ...(message ? {} : { synthesized: true }),
      },
      negative: false,
      running: false,
    };
  }

  private observation(e: JsonObject, path: (string | number)[], call: Call): Result {
    const { r } = this;
    const opath = [...path, 'observation'];
    const o = r.object(e['observation'], opath);
    const blocks = Array.isArray(o['content']);
    // Before November 2025: `output` (and the editor's `error` text, which it showed instead); since: `content`.
    const legacyError = typeof o['error'] === 'string' && o['error'] !== '' ? o['error'] : undefined;
    const { text: raw, images } = blocks
      ? contentOf(r, o['content'], [...opath, 'content'], '')
      : {
          text:
            legacyError ??
            [o['output'], o['content'], o['message']].find((t): t is string => typeof t === 'string') ??
            '',
          images: [],
        };
    const failed = o['is_error'] === true || o['error'] === true || legacyError !== undefined;
    const metadata = objectOr(o['metadata']);
    const exit = intOr(o['exit_code']) ?? intOr(metadata?.['exit_code']);
    let shown = call.shell || call.input ? terminalText(raw, metadata) : raw;
    if (failed && blocks) shown = `${ERROR_HEADER}${shown}`;
    else if (o['error'] === true) shown = `${LEGACY_SHELL_ERROR_HEADER}${shown}`;
    const extended = contentOf(r, e['extended_content'], [...path, 'extended_content'], '').text;
    const content = `${shown}${extended}`;
    let status: Status = { state: 'ok' };
    let negative = false;
    let running = false;
    if (call.shell) {
      const outcome = shellOutcome(call.shell, exit, raw);
      status = outcome.status;
      negative = outcome.negativeResult;
      running = outcome.running;
    } else if (call.input) running = exit === -1;
    if (failed && status.state === 'ok') {
      // The tool said it failed though no exit code does (an editor's refusal, a command the terminal would not run).
      const editor = call.editor?.kind;
      const message = (call.editor ? editorRefusal(raw) : undefined) ?? firstLine(raw);
      status = {
        state: 'error',
        errorType: editor === 'read' ? 'read-failed' : editor === 'write' ? 'edit-failed' : 'tool-error',
        message: message ?? 'tool error',
        fields: {},
        ...(message ? {} : { synthesized: true }),
      };
      negative = false;
      running = false;
    }
    if (call.search && status.state === 'ok') {
      const found = Array.isArray(o['matches']) ? o['matches'] : Array.isArray(o['files']) ? o['files'] : undefined;
      negative = found !== undefined && found.length === 0;
    }
    // A read that failed showed nothing of its source.
    const source = status.state === 'ok' ? sourceOf(call, raw) : undefined;
    return { content, images, status, negative, running, ...(source ? { source } : {}) };
  }
}

interface Result {
  readonly content: string;
  readonly images: ContentBlock[];
  readonly status: Status;
  readonly negative: boolean;
  readonly running: boolean;
  readonly source?: Source;
}

/** An event in the model's view, with the JSON path it was read at (a condensation's summary: the condensation's). */
interface Viewed {
  readonly id: string | undefined;
  readonly event: JsonObject;
  readonly path: (string | number)[];
}

const RESULT_KINDS = new Set(['ObservationEvent', 'UserRejectObservation', 'AgentErrorEvent']);
const str = (v: Json | undefined): string | undefined => (typeof v === 'string' ? v : undefined);

/**
 * The view as `View.from_events` (openhands-sdk `context/view/view.py`) hands it on: `enforce_properties` runs the
 * properties of `ALL_PROPERTIES` in their order, and as soon as one drops events it starts again from the first, until
 * none drops any. `all` is every event recorded up to the view (forgotten ones and kinds the model is never sent
 * too), as `from_events` is given them: batches and tool loops are read from it. Events are told apart by identity,
 * where the SDK uses their ids.
 */
function enforced(view: readonly Viewed[], all: readonly JsonObject[]): Viewed[] {
  const properties = [observationUniqueness, batchAtomicity, toolCallMatching, toolLoopAtomicity];
  let events = [...view];
  restart: for (;;) {
    for (const property of properties) {
      const drop = property(events, all);
      if (drop.size === 0) continue;
      events = events.filter((v) => !drop.has(v.event));
      continue restart;
    }
    return events;
  }
}

/** `ObservationUniquenessProperty`: one result per tool call id, the first in the view (a crash recovery's late twin). */
function observationUniqueness(view: readonly Viewed[]): Set<JsonObject> {
  const seen = new Set<string | undefined>();
  const drop = new Set<JsonObject>();
  for (const { event } of view) {
    if (!RESULT_KINDS.has(event['kind'] as string)) continue;
    const id = str(event['tool_call_id']);
    if (seen.has(id)) drop.add(event);
    else seen.add(id);
  }
  return drop;
}

/** The actions of each LLM response: one response's parallel calls, which the SDK sends as one message. */
function batches(events: Iterable<JsonObject>): Map<string | undefined, Set<JsonObject>> {
  const out = new Map<string | undefined, Set<JsonObject>>();
  for (const e of events) {
    if (e['kind'] !== 'ActionEvent') continue;
    const id = str(e['llm_response_id']);
    out.set(id, (out.get(id) ?? new Set()).add(e));
  }
  return out;
}

/** `BatchAtomicityProperty`: a response's calls go out all together or not at all. */
function batchAtomicity(view: readonly Viewed[], all: readonly JsonObject[]): Set<JsonObject> {
  const whole = batches(all);
  const drop = new Set<JsonObject>();
  for (const [id, actions] of batches(view.map((v) => v.event))) {
    const full = whole.get(id);
    if (!full || full.size !== actions.size || [...actions].some((a) => !full.has(a)))
      for (const a of actions) drop.add(a);
  }
  return drop;
}

/** `ToolCallMatchingProperty`: a call goes out only with a result in the view, a result only with its call. */
function toolCallMatching(view: readonly Viewed[]): Set<JsonObject> {
  const called = new Set<string | undefined>();
  const answered = new Set<string | undefined>();
  for (const { event } of view) {
    if (event['kind'] === 'ActionEvent') called.add(str(event['tool_call_id']));
    else if (RESULT_KINDS.has(event['kind'] as string)) answered.add(str(event['tool_call_id']));
  }
  const drop = new Set<JsonObject>();
  for (const { event } of view) {
    const id = str(event['tool_call_id']);
    if (
      event['kind'] === 'ActionEvent' ? !answered.has(id) : RESULT_KINDS.has(event['kind'] as string) && !called.has(id)
    )
      drop.add(event);
  }
  return drop;
}

/**
 * `ToolLoopAtomicityProperty`: a tool loop, from an action with thinking blocks through the calls and results that
 * follow it with nothing else between (any other recorded event ends it), goes out whole or not at all, since
 * Anthropic's extended thinking checks the thinking at its start.
 */
function toolLoopAtomicity(view: readonly Viewed[], all: readonly JsonObject[]): Set<JsonObject> {
  const loops: Set<JsonObject>[] = [];
  let loop: Set<JsonObject> | undefined;
  for (const e of all) {
    const thinking = e['thinking_blocks'];
    if (e['kind'] === 'ActionEvent' && Array.isArray(thinking) && thinking.length > 0) {
      loop = new Set([e]);
      loops.push(loop);
    } else if (e['kind'] === 'ActionEvent' || RESULT_KINDS.has(e['kind'] as string)) loop?.add(e);
    else loop = undefined;
  }
  const present = new Set(view.map((v) => v.event));
  const drop = new Set<JsonObject>();
  for (const l of loops) {
    const kept = [...l].filter((e) => present.has(e));
    if (kept.length > 0 && kept.length < l.size) for (const e of kept) drop.add(e);
  }
  return drop;
}

/**
 * The sessions of a V1 conversation: the context the model had until the first condensation, then one more per
 * condensation, `after-condensation-N`, each starting from the view that condensation left (the events it kept,
 * its summary at its offset) and carrying the task on. Each session is the view as `from_events` gives it where the
 * session ends (at the next condensation, or where the recording stops), so a call whose result had not arrived when
 * the recording stopped is not in it: the SDK never sends one (`Agent.step` runs pending calls before it asks the
 * model again, and a pause answers an interrupted one with an `AgentErrorEvent`), and `from_events` drops it.
 */
export async function importOpenHandsV1(
  root: Json,
  r: Reader,
  open: (session?: string) => TraceBuilder,
): Promise<void> {
  const base = Array.isArray(root) ? [] : ['events'];
  const events = Array.isArray(root) ? root : r.array(r.object(root, [])['events'], ['events']);
  const sessions = new CondensedSessions(open, (b) => new Session(b, r));
  sessions.current.b.formatVersion = 'V1 event stream (software-agent-sdk)';
  let view: Viewed[] = [];
  const recorded: JsonObject[] = [];
  // The properties are enforced on the whole view at once, so a session's events are read where it ends.
  const close = async () => {
    for (const v of enforced(view, recorded)) await sessions.current.event(v.event, v.path);
  };
  for (const [i, raw] of events.entries()) {
    const path = [...base, i];
    const e = r.object(raw, path);
    const kind = r.string(e['kind'], [...path, 'kind']);
    const id = r.optString(e['id'], [...path, 'id']);
    // An ACP-backed conversation records what an external agent server (Claude Code, Codex, Gemini over ACP) did:
    // its tool calls are events no View holds, and what that server's model was sent is in its own session, not here.
    // Importing the messages alone would leave out every call the model made and saw.
    if (kind === 'ACPToolCallEvent')
      r.fail(
        [...path, 'kind'],
        "an ACP tool call: this conversation ran an external agent server over ACP, whose model context the events do not record (import that agent's own session instead)",
      );
    if (kind === 'Condensation') {
      await close();
      const forgotten = new Set(
        (e['forgotten_event_ids'] === undefined || e['forgotten_event_ids'] === null
          ? []
          : r.array(e['forgotten_event_ids'], [...path, 'forgotten_event_ids'])
        ).filter((x): x is string => typeof x === 'string'),
      );
      const summary = r.optString(e['summary'], [...path, 'summary']);
      const offset = r.optNumber(e['summary_offset'], [...path, 'summary_offset']);
      // Applied to the view before enforcement, as `from_events` applies it: `summary_offset` counts in that list.
      view = view.filter((v) => v.id === undefined || !forgotten.has(v.id));
      // The SDK inserts the summary only when it has both (`Condensation.apply`), under the id `<id>-summary` a later
      // condensation can forget. It has no time of its own: it takes its neighbour's.
      if (summary !== undefined && offset !== undefined)
        view.splice(offset, 0, {
          id: `${id ?? ''}-summary`,
          event: { kind: 'CondensationSummaryEvent', summary, source: 'environment' },
          path: [...path, 'summary'],
        });
      // The next session is read from the view when it too ends.
      await sessions.condensed([], async () => {});
      recorded.push(e);
      continue;
    }
    // Pairing reads these before any event is read in full: a call or result that pairing then drops is refused too.
    if (kind === 'ActionEvent' || RESULT_KINDS.has(kind)) r.string(e['tool_call_id'], [...path, 'tool_call_id']);
    if (kind === 'ActionEvent') r.optString(e['llm_response_id'], [...path, 'llm_response_id']);
    recorded.push(e);
    if (IN_VIEW.has(kind)) view.push({ id, event: e, path });
  }
  await close();
}
