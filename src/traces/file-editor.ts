// The file editor tool SWE-agent 1.x and OpenHands share (`str_replace_editor`, Anthropic's text editor tool): one
// call with a `command` (view, create, str_replace, insert, undo_edit) and the path, range and strings it acts on,
// and the editor's own words when it refused. Also the windowed editors of SWE-agent (open/goto/scroll/edit/insert),
// whose observations show numbered lines. What a call reads or changes comes from its arguments; whether it failed
// comes from the tool's own output, never from a message written here.
import type { ReadSelector, Status } from '../fixture/schema.js';

export interface EditorCall {
  readonly kind: 'read' | 'write' | 'other';
  readonly path?: string;
  /** For a read: the view it asked for (absent: the whole file). */
  readonly selector?: ReadSelector;
}

const int = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isInteger(v) ? v : typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : undefined;

/** A `view_range` [from, to] (to -1: to the end) as a structured line selector; anything else is the whole file. */
export function viewRange(range: unknown): ReadSelector | undefined {
  if (!Array.isArray(range) || range.length !== 2) return undefined;
  const from = int(range[0]);
  const to = int(range[1]);
  if (from === undefined || to === undefined || from < 1) return undefined;
  // [1, -1] asks for every line: the whole file, stated as no selector.
  if (to === -1) return from === 1 ? undefined : { kind: 'lines', from };
  return to >= from ? { kind: 'lines', from, to } : undefined;
}

/** What an editor call does, from its arguments as recorded. */
export function editorCall(args: Record<string, unknown>): EditorCall {
  const command = typeof args['command'] === 'string' ? args['command'] : '';
  const path = typeof args['path'] === 'string' && args['path'] !== '' ? args['path'] : undefined;
  const at = path ? { path } : {};
  if (command === 'view') {
    const selector = viewRange(args['view_range']);
    return { kind: 'read', ...at, ...(selector ? { selector } : {}) };
  }
  if (['create', 'str_replace', 'insert', 'undo_edit', 'write', 'edit'].includes(command))
    return { kind: 'write', ...at };
  return { kind: 'other', ...at };
}

/** The editors' words for a change they did not make or a request they refused (SWE-agent, OpenHands, Anthropic). */
const REFUSALS: readonly RegExp[] = [
  /^ERROR:\s*$/m,
  /No replacement was performed[^\n]*/,
  /^Your proposed edit has introduced new syntax error\(s\)[^\n]*/m,
  /^Your search and replace strings are the same[^\n]*/m,
  /^Error: [^\n]+/m,
  /^ERROR: [^\n]+/m,
  /^Invalid `[\w_]+`[^\n]*/m,
  /^The path [^\n]+ does not exist[^\n]*/m,
  /^File already exists at[^\n]*/m,
  /^Parameter `[\w_]+` is required[^\n]*/m,
  /^No edit history found for[^\n]*/m,
  /^No file open(?:ed)?\.[^\n]*/m,
  /^Usage: [^\n]+/m,
];

/** The line the editor printed to refuse, when it did: OpenHands prints `ERROR:` alone and the reason on the next line. */
export function editorRefusal(output: string): string | undefined {
  for (const re of REFUSALS) {
    const m = re.exec(output);
    if (!m) continue;
    if (/^ERROR:\s*$/.test(m[0])) {
      const next = output
        .slice(m.index + m[0].length)
        .split('\n')
        .find((l) => l.trim() !== '');
      return (next ?? 'ERROR:').trim().slice(0, 200);
    }
    return m[0].trim().slice(0, 200);
  }
  return undefined;
}

/** An editor result's status: an error carrying the editor's own message when it refused, otherwise ok. */
export function editorStatus(output: string, errorType = 'edit-failed'): Status {
  const refusal = editorRefusal(output);
  return refusal ? { state: 'error', errorType, message: refusal, fields: {} } : { state: 'ok' };
}

/** The editor cut a long view short (`<response clipped>`): the read shows only part of what it asked for. */
export function clipped(output: string): boolean {
  return /<response clipped>|only part of this file has been shown to you/i.test(output);
}

/**
 * The lines a windowed view shows, from its numbered lines (`12:text` in SWE-agent's window, `12|text` in OpenHands'
 * ACI, `    12\ttext` in the str_replace editor): the first and last number, when they run in order.
 */
export function shownLines(output: string): { from: number; to: number } | undefined {
  const numbers = [...output.matchAll(/^\s*(\d+)(?::|\||\t)/gm)].map((m) => Number(m[1]));
  if (numbers.length === 0) return undefined;
  const from = numbers[0]!;
  const to = numbers[numbers.length - 1]!;
  return from >= 1 && to >= from && numbers.every((n, i) => i === 0 || n === numbers[i - 1]! + 1)
    ? { from, to }
    : undefined;
}

/** SWE-agent's window header `[File: path (N lines total)]`. */
export function windowFile(output: string): { path: string; total: number } | undefined {
  const m = /\[File: ([^\n]+?) \((\d+) lines total\)\]/.exec(output);
  return m ? { path: m[1]!.trim(), total: Number(m[2]) } : undefined;
}
