// mini-swe-agent trajectories: `messages` in OpenAI chat form, exactly the conversation the model saw, either in a
// `.traj.json` object ({info, messages, trajectory_format}) or as the bare message list its tests save. The model's
// action is one bash command:
// - v1 text mode: one ```bash block in the assistant text;
// - v2 text mode: one ```mswea_bash_command block or <mswea_bash_command> tag (v2 also records the parsed command in
//   the message's `extra.actions`);
// - v2 tool calls: assistant `tool_calls` answered by `tool` messages.
// A text-mode action is answered by the next user message (`<returncode>` and `<output>`, or the output cut into
// `<output_head>`/`<output_tail>`, or a timeout notice); a user message that answers no action is mini-swe-agent's
// own feedback (a format error, a limit), never a person. The closing `exit` message carries the submission, which
// the model never saw, so it is left out.
import type { ContentBlock, SideEffectClass, Source } from '../fixture/schema.js';
import type { TraceBuilder } from './build.js';
import { imageUrlBlock, imageUrlOf } from './image-url.js';
import { objectOr, type Json, type Reader } from './parse.js';
import { normalisePath, readShell, readSource, shellOutcome, type ShellReading } from './shell.js';

interface Call {
  readonly command: string;
  readonly callId: string;
  readonly name: string;
  readonly sideEffect: SideEffectClass;
  readonly reading: ShellReading;
}

async function call(command: string, callId: string): Promise<Call> {
  const reading = await readShell(command);
  return {
    command,
    callId,
    reading,
    name: reading.kind === 'read' ? 'shell.read' : 'shell.exec',
    sideEffect: reading.sideEffect,
  };
}

const BLOCKS: readonly { version: string; re: RegExp }[] = [
  { version: 'v2 text (mswea_bash_command)', re: /```mswea_bash_command\s*\n([\s\S]*?)\n?```/g },
  { version: 'v2 text (mswea_bash_command)', re: /<mswea_bash_command>([\s\S]*?)<\/mswea_bash_command>/g },
  { version: 'v1 text (bash block)', re: /```(?:bash|sh)\s*\n([\s\S]*?)\n?```/g },
];

/**
 * A message's text and any image it carries: a string, nothing, or a list of blocks. mini-swe-agent 1.9 to 1.13
 * marked messages for Anthropic's prompt cache in place, turning their content into `[{type: "text", text,
 * cache_control}]`, and saved them so; with `multimodal_regex` set (v2, `models/utils/openai_multimodal.py`) an
 * observation's `<MSWEA_MULTIMODAL_CONTENT>` tags become `image_url` blocks; the Responses API models write
 * `input_text`/`output_text` and `input_image` blocks. The text is the text blocks' in order; each image is kept by
 * the hash of its URL. Any other block is not something this importer reads.
 */
function messageContent(
  r: Reader,
  value: Json | undefined,
  path: readonly (string | number)[],
): { text: string; images: ContentBlock[] } {
  if (value === null || value === undefined) return { text: '', images: [] };
  if (!Array.isArray(value)) return { text: r.string(value, path), images: [] };
  const texts: string[] = [];
  const images: ContentBlock[] = [];
  for (const [k, raw] of value.entries()) {
    const block = r.object(raw, [...path, k]);
    const type = block['type'];
    if (type === 'text' || type === 'input_text' || type === 'output_text') {
      texts.push(r.string(block['text'], [...path, k, 'text']));
    } else if (type === 'image_url' || type === 'input_image') {
      images.push(imageUrlBlock(imageUrlOf(r, block, [...path, k])));
    } else
      r.fail(
        [...path, k, 'type'],
        `a content block of type ${JSON.stringify(type ?? null)}; only text and image blocks are read`,
      );
  }
  return { text: texts.join(''), images };
}

/** The blocks a draft carries when its message held an image beside its text. */
const withImages = (text: string, images: readonly ContentBlock[]): { blocks?: ContentBlock[] } =>
  images.length > 0 ? { blocks: [{ type: 'text', text }, ...images] } : {};

/** The command a bash tool call's JSON arguments name, or the arguments as they were when they name none. */
function commandOf(args: string): string {
  try {
    const parsed = JSON.parse(args) as unknown;
    if (parsed && typeof parsed === 'object' && typeof (parsed as Record<string, unknown>)['command'] === 'string')
      return (parsed as Record<string, string>)['command']!;
  } catch {
    // The model's arguments were not JSON; the runtime then ran nothing sensible, and the text is kept as is.
  }
  return args;
}

/**
 * The one command a text-mode reply holds, as mini-swe-agent parses it: exactly one action block, else none runs
 * (the runtime answers with a format error instead).
 */
function textAction(content: string): { command: string; version: string } | undefined {
  for (const { version, re } of BLOCKS) {
    const found = [...content.matchAll(re)].map((m) => m[1]!.trim());
    if (found.length === 1) return { command: found[0]!, version };
    if (found.length > 1) return undefined;
  }
  return undefined;
}

/** The command output inside an observation, and whether mini-swe-agent cut it (head and tail kept, middle elided). */
function observed(content: string): { output: string; truncated: boolean } {
  const whole = /<output>\n?([\s\S]*?)<\/output>/.exec(content)?.[1];
  if (whole !== undefined) return { output: whole, truncated: false };
  const head = /<output_head>\n?([\s\S]*?)<\/output_head>/.exec(content)?.[1];
  const tail = /<output_tail>\n?([\s\S]*?)<\/output_tail>/.exec(content)?.[1];
  if (head !== undefined || tail !== undefined) return { output: `${head ?? ''}${tail ?? ''}`, truncated: true };
  return { output: content, truncated: false };
}

function answer(
  b: TraceBuilder,
  c: Call,
  content: string,
  returncode: number | undefined,
  exception: string | undefined,
  time: number | undefined,
  images: readonly ContentBlock[] = [],
): void {
  const { output, truncated } = observed(content);
  const timedOut = /timed out and has been killed/.test(content);
  const outcome = shellOutcome(c.reading, returncode, output);
  const status = exception
    ? {
        state: 'error' as const,
        errorType: 'exception',
        message: exception
          .split('\n')
          .find((l) => l.trim() !== '')!
          .trim()
          .slice(0, 200),
        fields: returncode === undefined ? {} : { exitCode: String(returncode) },
      }
    : timedOut
      ? {
          state: 'error' as const,
          errorType: 'timeout',
          message: content
            .split('\n')
            .find((l) => /timed out/.test(l))!
            .trim()
            .slice(0, 200),
          fields: {},
        }
      : outcome.status;
  const selector = c.reading.selector ?? (truncated ? { kind: 'whole' as const } : undefined);
  const source: Source | undefined = c.reading.path
    ? readSource(c.reading.path, selector && truncated ? { ...selector, truncated: true } : selector)
    : undefined;
  b.settleEffects(c.callId, status.state === 'ok' ? 'succeeded' : exception || timedOut ? 'unknown' : 'failed');
  b.add({
    origin: 'environment',
    kind: 'tool-result',
    content,
    ...withImages(content, images),
    time,
    tool: { name: c.name, sideEffect: c.sideEffect, arguments: { command: c.command }, callId: c.callId },
    status,
    ...(source ? { source } : {}),
    negativeResult: outcome.negativeResult && status.state === 'ok',
    transientState: c.reading.transient,
  });
}

export async function importMiniSweAgent(root: Json, r: Reader, b: TraceBuilder): Promise<void> {
  const bare = Array.isArray(root);
  const top = bare ? undefined : r.object(root, []);
  const messages = bare ? root : r.array(top!['messages'], ['messages']);
  const base: (string | number)[] = bare ? [] : ['messages'];
  const stated = typeof top?.['trajectory_format'] === 'string' ? top['trajectory_format'] : undefined;
  const mini = objectOr(top?.['info'])?.['mini_version'];
  const pending = new Map<string, Call>();
  let textCall: Call | undefined;
  let version: string | undefined;
  let seenTask = false;
  let n = 0;
  // A structured tool call (chat `tool_calls` or a Responses API `function_call`): its JSON arguments as the model
  // wrote them, the command they name read as the shell would, awaiting its output by call id.
  const addCall = async (id: string, args: string, time: number | undefined): Promise<void> => {
    const command = commandOf(args);
    const c = await call(command, id);
    pending.set(id, c);
    b.add({
      origin: 'model',
      kind: 'tool-call',
      content: args,
      time,
      tool: { name: c.name, sideEffect: c.sideEffect, arguments: { command }, callId: id },
      effects: c.reading.writes.map((w) => normalisePath(w)),
    });
  };
  for (const [i, raw] of messages.entries()) {
    const path = [...base, i];
    const m = r.object(raw, path);
    const extra = objectOr(m['extra']);
    const stamp = r.optNumber(extra?.['timestamp'], [...path, 'extra', 'timestamp']);
    if (m['object'] === 'response') {
      // A Responses API model's reply, saved whole (`litellm_response_model.py`): its output items are what the model
      // said and called, and are sent back as they are.
      b.modelTurn();
      textCall = undefined;
      version = 'v2 responses API tool calls';
      const created = r.optNumber(m['created_at'], [...path, 'created_at']);
      const time = created !== undefined ? created * 1000 : stamp !== undefined ? stamp * 1000 : undefined;
      for (const [j, rawItem] of r.array(m['output'], [...path, 'output']).entries()) {
        const ipath = [...path, 'output', j];
        const item = r.object(rawItem, ipath);
        const type = r.string(item['type'], [...ipath, 'type']);
        if (type === 'reasoning') continue;
        if (type === 'message') {
          const { text } = messageContent(r, item['content'], [...ipath, 'content']);
          if (text.trim() !== '') b.add({ origin: 'model', kind: 'reasoning', content: text, time });
        } else if (type === 'function_call') {
          const id = r.string(item['call_id'] ?? item['id'], [...ipath, 'call_id']);
          await addCall(id, r.string(item['arguments'], [...ipath, 'arguments']), time);
        } else
          r.fail(
            [...ipath, 'type'],
            `an output item of type "${type}"; only reasoning, message and function_call items are read`,
          );
      }
      continue;
    }
    if (m['type'] === 'function_call_output') {
      const id = r.string(m['call_id'], [...path, 'call_id']);
      const c = pending.get(id);
      if (!c) r.fail([...path, 'call_id'], `answers tool call "${id}", which no earlier response made`);
      pending.delete(id);
      const { text, images } = messageContent(r, m['output'], [...path, 'output']);
      const rc = r.optNumber(extra?.['returncode'], [...path, 'extra', 'returncode']);
      const exception =
        typeof extra?.['exception_info'] === 'string' && extra['exception_info'].trim() !== ''
          ? extra['exception_info']
          : undefined;
      answer(b, c, text, rc, exception, stamp === undefined ? undefined : stamp * 1000, images);
      continue;
    }
    const role = r.string(m['role'], [...path, 'role']);
    const { text: content, images } = messageContent(r, m['content'], [...path, 'content']);
    const shown = withImages(content, images);
    if (role === 'system') {
      b.add({ origin: 'system', kind: 'instruction', content, ...shown });
    } else if (role === 'assistant') {
      b.modelTurn();
      textCall = undefined;
      const response = objectOr(extra?.['response']);
      const created = r.optNumber(response?.['created'], [...path, 'extra', 'response', 'created']);
      const time = created !== undefined ? created * 1000 : stamp !== undefined ? stamp * 1000 : undefined;
      const calls =
        m['tool_calls'] === undefined || m['tool_calls'] === null
          ? []
          : r.array(m['tool_calls'], [...path, 'tool_calls']);
      if (calls.length > 0) {
        version = 'v2 tool calls';
        if (content.trim() !== '') b.add({ origin: 'model', kind: 'reasoning', content, time });
        for (const [j, rawCall] of calls.entries()) {
          const cpath = [...path, 'tool_calls', j];
          const tc = r.object(rawCall, cpath);
          const id = r.string(tc['id'], [...cpath, 'id']);
          const fn = r.object(tc['function'], [...cpath, 'function']);
          await addCall(id, r.string(fn['arguments'], [...cpath, 'function', 'arguments']), time);
        }
        continue;
      }
      // v2 records the command it parsed; older records leave it to be read off the text by the same rule.
      const actions = Array.isArray(extra?.['actions'])
        ? extra['actions'].map(objectOr).filter((a) => typeof a?.['command'] === 'string')
        : undefined;
      const parsed =
        actions && actions.length === 1
          ? { command: actions[0]!['command'] as string, version: 'v2 text' }
          : actions && actions.length > 1
            ? undefined
            : textAction(content);
      if (!parsed) {
        b.add({ origin: 'model', kind: 'reasoning', content, time });
        continue;
      }
      version ??= parsed.version;
      n += 1;
      textCall = await call(parsed.command, `action-${n}`);
      b.add({
        origin: 'model',
        kind: 'tool-call',
        content,
        time,
        tool: {
          name: textCall.name,
          sideEffect: textCall.sideEffect,
          arguments: { command: parsed.command },
          callId: textCall.callId,
        },
        effects: textCall.reading.writes.map((w) => normalisePath(w)),
      });
    } else if (role === 'tool') {
      const id = r.string(m['tool_call_id'], [...path, 'tool_call_id']);
      const c = pending.get(id);
      if (!c) r.fail([...path, 'tool_call_id'], `answers tool call "${id}", which no earlier assistant message made`);
      pending.delete(id);
      const rc = r.optNumber(extra?.['returncode'], [...path, 'extra', 'returncode']);
      const exception =
        typeof extra?.['exception_info'] === 'string' && extra['exception_info'].trim() !== ''
          ? extra['exception_info']
          : undefined;
      answer(b, c, content, rc, exception, stamp === undefined ? undefined : stamp * 1000, images);
    } else if (role === 'user' && !seenTask) {
      seenTask = true;
      b.userInstruction(content);
      if (images.length > 0) b.add({ origin: 'user', kind: 'instruction', content: '', blocks: images });
    } else if (role === 'user' && textCall) {
      const c = textCall;
      textCall = undefined;
      const recorded = r.optNumber(extra?.['returncode'], [...path, 'extra', 'returncode']);
      const code = /<returncode>\s*(-?\d+)\s*<\/returncode>/.exec(content)?.[1];
      answer(
        b,
        c,
        content,
        recorded ?? (code === undefined ? undefined : Number(code)),
        undefined,
        stamp === undefined ? undefined : stamp * 1000,
        images,
      );
    } else if (role === 'user') {
      // After the task, mini-swe-agent's user turns are its own feedback (format errors, limits), not a person.
      b.add({ origin: 'system', kind: 'instruction', content, ...shown });
    } else if (role === 'exit') {
    } else {
      r.fail([...path, 'role'], `unknown role "${role}" (expected system, user, assistant, tool or exit)`);
    }
  }
  b.formatVersion =
    [stated, typeof mini === 'string' ? `mini ${mini}` : undefined, version].filter(Boolean).join(', ') || undefined;
}
