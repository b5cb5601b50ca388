// SWE-agent `.traj` files. What the model saw is `history` (system prompt, demonstration, issue, then the model's
// thought-and-action messages each answered by the environment's observation); `trajectory` repeats the steps.
// The record has no timestamps and no exit codes, so times are synthetic and a status is an error only where the
// observation itself says so (a rejected edit, a traceback, a missing command).
import type { Source, Status } from '../fixture/schema.js';
import type { TraceBuilder } from './build.js';
import type { Json, Reader } from './parse.js';
import { normalisePath, readShell } from './shell.js';

/** SWE-agent's own commands and what each does to the world. */
const COMMANDS: Record<string, 'read' | 'search' | 'write' | 'submit'> = {
  open: 'read', goto: 'read', scroll_up: 'read', scroll_down: 'read',
  search_dir: 'search', search_file: 'search', find_file: 'search',
  edit: 'write', create: 'write', submit: 'submit',
};

/** The `(Open file: ...)` and `(Current directory: ...)` footer SWE-agent appends to every observation. */
function footer(text: string): { openFile?: string; cwd?: string } {
  const open = /\(Open file: ([^)\n]+)\)/.exec(text)?.[1]?.trim();
  const cwd = /\(Current directory: ([^)\n]+)\)/.exec(text)?.[1]?.trim();
  return { ...(open && open !== 'n/a' ? { openFile: open } : {}), ...(cwd ? { cwd } : {}) };
}

function observedStatus(text: string): Status {
  if (/Your proposed edit has introduced new syntax error/.test(text)) {
    return { state: 'error', errorType: 'edit-rejected', message: 'the proposed edit introduced a syntax error and was not applied', fields: {} };
  }
  const tb = /Traceback \(most recent call last\):[\s\S]*?\n(\w+(?:\.\w+)*(?:Error|Exception)[^\n]*)/.exec(text);
  if (tb) return { state: 'error', errorType: 'traceback', message: tb[1]!.trim().slice(0, 200), fields: {} };
  const missing = /(?:^|\n)(?:bash: )?([^\s:]+): command not found/.exec(text);
  if (missing) return { state: 'error', errorType: 'command-not-found', message: `${missing[1]}: command not found`, fields: {} };
  return { state: 'ok' };
}

export async function importSweAgent(root: Json, r: Reader, b: TraceBuilder): Promise<void> {
  const top = r.object(root, []);
  const history = r.array(top['history'], ['history']);
  let pending: { name: string; sideEffect: 'read-mutable' | 'non-idempotent'; args: Record<string, unknown>; callId: string; action: string } | undefined;
  let cwd: string | undefined;
  let openFile: string | undefined;
  let step = 0;
  for (const [i, raw] of history.entries()) {
    const m = r.object(raw, ['history', i]);
    const role = r.string(m['role'], ['history', i, 'role']);
    const content = r.string(m['content'], ['history', i, 'content']);
    if (role === 'system') {
      b.add({ origin: 'system', kind: 'instruction', content });
    } else if (role === 'assistant') {
      const action = r.optString(m['action'], ['history', i, 'action'])?.trim();
      b.modelTurn();
      if (!action) {
        b.add({ origin: 'model', kind: 'reasoning', content });
        pending = undefined;
        continue;
      }
      step += 1;
      const word = action.split(/\s+/)[0] ?? '';
      const own = COMMANDS[word];
      const shell = own ? undefined : await readShell(action);
      const name = own ? word : shell!.kind === 'read' ? 'shell.read' : 'shell.exec';
      const sideEffect = own === 'read' || own === 'search' || shell?.kind === 'read' ? 'read-mutable' : 'non-idempotent';
      pending = { name, sideEffect, args: { action }, callId: `step-${step}`, action };
      const target = word === 'create' || word === 'open' ? action.split(/\s+/)[1] : undefined;
      const effects = own === 'write' ? [word === 'create' && target ? normalisePath(target, cwd) : openFile].filter((x): x is string => !!x) : [];
      b.add({ origin: 'model', kind: 'tool-call', content, tool: { name, sideEffect, arguments: pending.args, callId: pending.callId }, effects });
    } else if (role === 'user' && m['is_demo'] === true) {
      // The demonstration is the runtime's template text, shown to the model as a user turn.
      b.add({ origin: 'system', kind: 'instruction', content });
    } else if (role === 'user' && pending) {
      const call = pending;
      pending = undefined;
      const seen = footer(content);
      if (seen.cwd) cwd = seen.cwd;
      const word = call.action.split(/\s+/)[0] ?? '';
      let source: Source | undefined;
      if (['open', 'goto', 'scroll_up', 'scroll_down'].includes(word) && seen.openFile) {
        const window = word === 'open' ? call.action.split(/\s+/).slice(2).join(' ') : '';
        source = { identity: seen.openFile, version: 'UNKNOWN', mutable: 'UNKNOWN', selector: window ? `line ${window}` : `window after ${call.action}` };
      } else if (call.name === 'shell.read') {
        const reading = await readShell(call.action);
        if (reading.path) source = { identity: normalisePath(reading.path, cwd), version: 'UNKNOWN', mutable: 'UNKNOWN', ...(reading.selector ? { selector: reading.selector } : {}) };
      }
      if (seen.openFile) openFile = seen.openFile;
      const status = observedStatus(content);
      const callReading = await readShell(call.action);
      const negative = /^No matches found for|Found 0 matches|did not find any matches/m.test(content)
        || (callReading.search && content.replace(/\(Open file:[\s\S]*$/, '').trim() === '');
      b.add({
        origin: 'environment', kind: 'tool-result', content,
        tool: { name: call.name, sideEffect: call.sideEffect, arguments: call.args, callId: call.callId },
        status, ...(source ? { source } : {}), negativeResult: negative, transientState: call.name.startsWith('shell') && callReading.transient,
      });
    } else if (role === 'user') {
      b.userInstruction(content);
    } else {
      r.fail(['history', i, 'role'], `unknown role "${role}" (expected system, user or assistant)`);
    }
  }
}
