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
import type { SideEffectClass, Source } from '../fixture/schema.js';
import type { TraceBuilder } from './build.js';
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
 * A message's text: a string, nothing, or a list of text blocks. mini-swe-agent 1.9 to 1.13 marked messages for
 * Anthropic's prompt cache in place, turning their content into `[{type: "text", text, cache_control}]`, and saved
 * them so; the text is the blocks' text in order. Any other block is not something this importer reads.
 */
function messageText(r: Reader, value: Json | undefined, path: readonly (string | number)[]): string {
  if (value === null || value === undefined) return '';
  if (!Array.isArray(value)) return r.string(value, path);
  return value
    .map((raw, k) => {
      const block = r.object(raw, [...path, k]);
      if (block['type'] !== 'text')
        r.fail(
          [...path, k, 'type'],
          `a content block of type ${JSON.stringify(block['type'] ?? null)}; only text blocks are read`,
        );
      return r.string(block['text'], [...path, k, 'text']);
    })
    .join('');
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
  for (const [i, raw] of messages.entries()) {
    const path = [...base, i];
    const m = r.object(raw, path);
    const role = r.string(m['role'], [...path, 'role']);
    const content = messageText(r, m['content'], [...path, 'content']);
    const extra = objectOr(m['extra']);
    const stamp = r.optNumber(extra?.['timestamp'], [...path, 'extra', 'timestamp']);
    if (role === 'system') {
      b.add({ origin: 'system', kind: 'instruction', content });
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
          const args = r.string(fn['arguments'], [...cpath, 'function', 'arguments']);
          let command = args;
          try {
            const parsed = JSON.parse(args) as unknown;
            if (
              parsed &&
              typeof parsed === 'object' &&
              typeof (parsed as Record<string, unknown>)['command'] === 'string'
            )
              command = (parsed as Record<string, string>)['command']!;
          } catch {
            // The model's arguments were not JSON; the runtime then ran nothing sensible, and the text is kept as is.
          }
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
      answer(b, c, content, rc, exception, stamp === undefined ? undefined : stamp * 1000);
    } else if (role === 'user' && !seenTask) {
      seenTask = true;
      b.userInstruction(content);
    } else if (role === 'user' && textCall) {
      const c = textCall;
      textCall = undefined;
      const recorded = r.optNumber(extra?.['returncode'], [...path, 'extra', 'returncode']);
      const shown = /<returncode>\s*(-?\d+)\s*<\/returncode>/.exec(content)?.[1];
      answer(
        b,
        c,
        content,
        recorded ?? (shown === undefined ? undefined : Number(shown)),
        undefined,
        stamp === undefined ? undefined : stamp * 1000,
      );
    } else if (role === 'user') {
      // After the task, mini-swe-agent's user turns are its own feedback (format errors, limits), not a person.
      b.add({ origin: 'system', kind: 'instruction', content });
    } else if (role === 'exit') {
    } else {
      r.fail([...path, 'role'], `unknown role "${role}" (expected system, user, assistant, tool or exit)`);
    }
  }
  b.formatVersion =
    [stated, typeof mini === 'string' ? `mini ${mini}` : undefined, version].filter(Boolean).join(', ') || undefined;
}
