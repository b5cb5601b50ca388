// SWE-agent `.traj` files, 0.x and 1.x. What the model saw is `history`: the system prompt, demonstrations, the
// issue, then the model's messages each answered by the environment's observation. In 0.x (and 1.x with the
// xml/backtick action parsers) an observation is a `user` message after the action; in 1.x with function calling an
// assistant message carries `tool_calls` and each is answered by a `role: "tool"` message naming it in
// `tool_call_ids`; 1.x also labels messages with `message_type` (system_prompt, demonstration, observation, action,
// thought). The record has no timestamps and no exit codes: times are synthetic, and a status is an error only where
// the observation itself says so (the editor's refusal, a traceback, a missing command), in the tool's own words.
import type { ContentBlock, ReadSelector, SideEffectClass, Source, Status } from '../fixture/schema.js';
import type { TraceBuilder } from './build.js';
import { imageUrlBlock, imageUrlOf } from './image-url.js';
import { clipped, editorCall, editorRefusal, shownLines, windowFile } from './file-editor.js';
import type { Json, Reader } from './parse.js';
import { normalisePath, readShell, readSource, shellReadSource, type ShellReading } from './shell.js';

/** SWE-agent's own commands and what each does to the world. */
const COMMANDS: Record<string, 'read' | 'search' | 'write' | 'submit'> = {
  open: 'read',
  goto: 'read',
  scroll_up: 'read',
  scroll_down: 'read',
  search_dir: 'search',
  search_file: 'search',
  find_file: 'search',
  edit: 'write',
  create: 'write',
  insert: 'write',
  append: 'write',
  submit: 'submit',
};

interface Call {
  readonly name: string;
  readonly sideEffect: SideEffectClass;
  readonly args: Record<string, unknown>;
  readonly callId: string;
  /** The command line as SWE-agent ran it (its `action`). */
  readonly action: string;
  readonly own?: 'read' | 'search' | 'write' | 'submit';
  readonly shell?: ShellReading;
  readonly editor?: ReturnType<typeof editorCall>;
}

/** The `(Open file: ...)` and `(Current directory: ...)` footer SWE-agent appends to every observation. */
function footer(text: string): { openFile?: string; cwd?: string } {
  const open = /\(Open file: ([^)\n]+)\)/.exec(text)?.[1]?.trim();
  const cwd = /\(Current directory: ([^)\n]+)\)/.exec(text)?.[1]?.trim();
  return { ...(open && open !== 'n/a' ? { openFile: open } : {}), ...(cwd ? { cwd } : {}) };
}

/** An error the observation itself reports, in its own words (the record keeps no exit code). */
function observedStatus(text: string, call: Call): Status {
  if (call.own === 'write' || call.editor) {
    const refusal = editorRefusal(text);
    if (refusal)
      return {
        state: 'error',
        errorType: /syntax error/.test(refusal) ? 'edit-rejected' : 'edit-failed',
        message: refusal,
        fields: {},
      };
  }
  const tb = /Traceback \(most recent call last\):[\s\S]*?\n(\w+(?:\.\w+)*(?:Error|Exception)[^\n]*)/.exec(text);
  if (tb) return { state: 'error', errorType: 'traceback', message: tb[1]!.trim().slice(0, 200), fields: {} };
  const missing = /(?:^|\n)((?:bash: )?[^\s:]+: command not found)/.exec(text);
  if (missing) return { state: 'error', errorType: 'command-not-found', message: missing[1]!, fields: {} };
  if (call.own === 'read' || call.own === 'search') {
    const refusal = editorRefusal(text);
    if (refusal) return { state: 'error', errorType: 'tool-error', message: refusal, fields: {} };
  }
  return { state: 'ok' };
}

/** Text of a history message: a string, or (1.x with prompt caching) a list of `{type: "text", text}` blocks. */
function messageContent(
  r: Reader,
  v: Json | undefined,
  path: (string | number)[],
): { text: string; images: ContentBlock[] } {
  if (typeof v === 'string') return { text: v, images: [] };
  const texts: string[] = [];
  const images: ContentBlock[] = [];
  for (const [i, b] of r.array(v, path).entries()) {
    const o = r.object(b, [...path, i]);
    if (o['type'] === 'image_url') {
      // An image the model was sent (SWE-bench Multimodal issues, the image tools): kept by the hash of its URL.
      images.push(imageUrlBlock(imageUrlOf(r, o, [...path, i])));
    } else if (o['type'] === undefined || o['type'] === 'text')
      texts.push(typeof o['text'] === 'string' ? o['text'] : r.string(o['text'], [...path, i, 'text']));
    else
      r.fail(
        [...path, i, 'type'],
        `a content block of type ${JSON.stringify(o['type'])}; only text and image_url blocks are read`,
      );
  }
  return { text: texts.join(''), images };
}

/** The blocks a draft carries when its message held an image beside its text. */
const withImages = (text: string, images: readonly ContentBlock[]): { blocks?: ContentBlock[] } =>
  images.length > 0 ? { blocks: [{ type: 'text', text }, ...images] } : {};

function parseArguments(raw: Json | undefined): Record<string, unknown> | undefined {
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) return raw as Record<string, unknown>;
  if (typeof raw !== 'string') return undefined;
  try {
    const v = JSON.parse(raw) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

async function makeCall(
  action: string,
  callId: string,
  fnName: string | undefined,
  fnArgs: Record<string, unknown> | undefined,
): Promise<Call> {
  const word = fnName ?? action.split(/\s+/)[0] ?? '';
  if (word === 'str_replace_editor' && fnArgs) {
    const editor = editorCall(fnArgs);
    return {
      name: word,
      sideEffect: editor.kind === 'read' ? 'read-mutable' : 'non-idempotent',
      args: fnArgs,
      callId,
      action,
      editor,
    };
  }
  const own = COMMANDS[word];
  if (own)
    return {
      name: word,
      sideEffect: own === 'read' || own === 'search' ? 'read-mutable' : 'non-idempotent',
      args: fnArgs ?? { action },
      callId,
      action,
      own,
    };
  const command = fnArgs && typeof fnArgs['command'] === 'string' ? fnArgs['command'] : action;
  const shell = await readShell(command);
  return {
    name: shell.kind === 'read' ? 'shell.read' : 'shell.exec',
    sideEffect: shell.sideEffect,
    args: fnArgs ?? { action },
    callId,
    action: command,
    shell,
  };
}

/** The file a call changes, from its arguments or the window state. */
function effectOf(call: Call, cwd: string | undefined, openFile: string | undefined): string[] {
  if (call.editor)
    return call.editor.kind === 'write' && call.editor.path ? [normalisePath(call.editor.path, cwd)] : [];
  if (call.own === 'write') {
    // `create` names its file; every other edit command changes the file open in the window.
    const created =
      call.name !== 'create'
        ? undefined
        : typeof call.args['filename'] === 'string'
          ? call.args['filename']
          : call.action.split(/\s+/)[1]?.replace(/^["']|["']$/g, '');
    return [created ? normalisePath(created, cwd) : openFile].filter((x): x is string => !!x);
  }
  return call.shell ? call.shell.writes.map((w) => normalisePath(w, cwd)) : [];
}

/** What the observation shows of a file: its window's lines (structured), cut short when the editor clipped it. */
function sourceOf(
  call: Call,
  content: string,
  cwd: string | undefined,
  openFile: string | undefined,
): Source | undefined {
  const lines = shownLines(content);
  const window = windowFile(content);
  const truncated = clipped(content) ? { truncated: true } : {};
  if (call.editor?.kind === 'read' && call.editor.path && /^Here's the files and directories/.test(content)) {
    return readSource(call.editor.path, { kind: 'listing', query: call.editor.path, ...truncated }, cwd);
  }
  if (call.editor?.kind === 'read' && call.editor.path) {
    const selector: ReadSelector | undefined = call.editor.selector
      ? { ...call.editor.selector, ...truncated }
      : clipped(content)
        ? { kind: 'whole', truncated: true }
        : undefined;
    return readSource(call.editor.path, selector, cwd);
  }
  if (call.own === 'read' && (window?.path ?? openFile)) {
    const identity = window?.path ?? openFile!;
    // The window shows a range of the file: the whole of it only when it shows every line.
    const whole = window && lines && lines.from === 1 && lines.to === window.total;
    const selector: ReadSelector = lines
      ? { kind: 'lines', from: lines.from, to: lines.to }
      : { kind: 'other', query: call.action };
    return { identity, version: 'UNKNOWN', mutable: 'UNKNOWN', ...(whole ? {} : { selector }) };
  }
  return shellReadSource(call.shell, cwd);
}

export async function importSweAgent(root: Json, r: Reader, b: TraceBuilder): Promise<void> {
  const top = r.object(root, []);
  const history = r.array(top['history'], ['history']);
  const pending = new Map<string, Call>();
  let textCall: Call | undefined;
  let cwd: string | undefined;
  let openFile: string | undefined;
  let sawTask = false;
  let step = 0;
  const typed = history.some((m) => m && typeof m === 'object' && !Array.isArray(m) && 'message_type' in m);
  const toolRole = history.some((m) => m && typeof m === 'object' && !Array.isArray(m) && m['role'] === 'tool');
  b.formatVersion = toolRole ? '1.x function-calling' : typed ? '1.x text actions' : '0.x';
  const answer = (call: Call, content: string, images: readonly ContentBlock[]) => {
    const seen = footer(content);
    if (seen.cwd) cwd = seen.cwd;
    const source = sourceOf(call, content, cwd, seen.openFile ?? openFile);
    if (seen.openFile) openFile = seen.openFile;
    const status = observedStatus(content, call);
    const body = content.replace(/\n?\(Open file:[\s\S]*$/, '');
    const negative =
      status.state === 'ok' &&
      (/^No matches found for|^Found 0 matches|did not find any matches/m.test(content) ||
        (!!call.shell?.search && body.trim() === ''));
    b.settleEffects(call.callId, status.state === 'ok' ? 'succeeded' : 'failed');
    b.add({
      origin: 'environment',
      kind: 'tool-result',
      content,
      ...withImages(content, images),
      tool: { name: call.name, sideEffect: call.sideEffect, arguments: call.args, callId: call.callId },
      status,
      ...(source ? { source } : {}),
      negativeResult: negative,
      transientState: !!call.shell?.transient,
    });
  };
  for (const [i, raw] of history.entries()) {
    const path = ['history', i];
    const m = r.object(raw, path);
    const role = r.string(m['role'], [...path, 'role']);
    const type = typeof m['message_type'] === 'string' ? m['message_type'] : undefined;
    const { text: content, images } = messageContent(r, m['content'], [...path, 'content']);
    const shown = withImages(content, images);
    if (role !== 'assistant') cwd = footer(content).cwd ?? cwd;
    if (role === 'system') {
      b.add({ origin: 'system', kind: 'instruction', content, ...shown });
    } else if (m['is_demo'] === true || type === 'demonstration') {
      // The demonstration is the runtime's template text, shown to the model as a user turn.
      b.add({ origin: 'system', kind: 'instruction', content, ...shown });
    } else if (role === 'assistant') {
      b.modelTurn();
      textCall = undefined;
      const calls =
        m['tool_calls'] === undefined || m['tool_calls'] === null
          ? []
          : r.array(m['tool_calls'], [...path, 'tool_calls']);
      const action = r.optString(m['action'], [...path, 'action'])?.trim() ?? '';
      if (calls.length === 0 && !action) {
        b.add({ origin: 'model', kind: 'reasoning', content });
        continue;
      }
      if (calls.length === 0) {
        step += 1;
        const call = await makeCall(action, `step-${step}`, undefined, undefined);
        textCall = call;
        b.add({
          origin: 'model',
          kind: 'tool-call',
          content,
          tool: { name: call.name, sideEffect: call.sideEffect, arguments: call.args, callId: call.callId },
          effects: effectOf(call, cwd, openFile),
        });
        continue;
      }
      if (content.trim() !== '') b.add({ origin: 'model', kind: 'reasoning', content });
      for (const [j, rawCall] of calls.entries()) {
        const cpath = [...path, 'tool_calls', j];
        const tc = r.object(rawCall, cpath);
        const id = r.string(tc['id'], [...cpath, 'id']);
        const fn = r.object(tc['function'], [...cpath, 'function']);
        const name = r.string(fn['name'], [...cpath, 'function', 'name']);
        const args = parseArguments(fn['arguments']) ?? { arguments: fn['arguments'] ?? null };
        const call = await makeCall(calls.length === 1 && action ? action : name, id, name, args);
        pending.set(id, call);
        b.add({
          origin: 'model',
          kind: 'tool-call',
          content: JSON.stringify({ name, arguments: args }),
          tool: { name: call.name, sideEffect: call.sideEffect, arguments: call.args, callId: id },
          effects: effectOf(call, cwd, openFile),
        });
      }
    } else if (role === 'tool') {
      const ids = Array.isArray(m['tool_call_ids'])
        ? m['tool_call_ids']
        : typeof m['tool_call_id'] === 'string'
          ? [m['tool_call_id']]
          : [];
      const id = ids.find((x): x is string => typeof x === 'string' && pending.has(x));
      if (!id) r.fail([...path, 'tool_call_ids'], 'answers no tool call an earlier assistant message made');
      const call = pending.get(id)!;
      pending.delete(id);
      answer(call, content, images);
    } else if (role === 'user' && textCall) {
      const call = textCall;
      textCall = undefined;
      answer(call, content, images);
    } else if (role === 'user' && !sawTask) {
      sawTask = true;
      b.userInstruction(content);
      if (images.length > 0) b.add({ origin: 'user', kind: 'instruction', content: '', blocks: images });
    } else if (role === 'user') {
      // After the task, SWE-agent's user turns are its own feedback (format errors, cost limits), not a person.
      b.add({ origin: 'system', kind: 'instruction', content, ...shown });
    } else {
      r.fail([...path, 'role'], `unknown role "${role}" (expected system, user, assistant or tool)`);
    }
  }
}
