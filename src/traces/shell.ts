// What a recorded shell command observably is, from its text alone: a read of files (and which one), a search, an
// observation of transient state, or anything else (which may change the world, so it is treated as
// non-idempotent). Conservative by design: a command is a read only if every part of it is a known reader.
import { parse } from 'sh-syntax';
const READERS = new Set(['cat', 'head', 'tail', 'nl', 'less', 'more', 'wc', 'ls', 'tree', 'file', 'stat', 'grep', 'egrep', 'rg', 'ag', 'find', 'fd', 'awk', 'sort', 'uniq', 'cut', 'diff', 'pwd', 'echo', 'which', 'type']);
const SEARCHERS = new Set(['grep', 'egrep', 'rg', 'ag', 'find', 'fd']);
const FILE_READERS = new Set(['cat', 'head', 'tail', 'nl', 'less', 'more']);
const GIT_READS = new Set(['diff', 'log', 'show', 'status', 'blame', 'branch', 'ls-files', 'rev-parse']);
/** Commands whose output describes a moment (processes, clocks, ports, containers), not a durable source. */
const TRANSIENT = new Set(['ps', 'top', 'htop', 'date', 'uptime', 'free', 'df', 'du', 'netstat', 'ss', 'lsof', 'jobs', 'nvidia-smi', 'vmstat', 'iostat']);

export interface ShellReading {
  readonly kind: 'read' | 'exec';
  /** The one file a plain file reader read, as written in the command. */
  readonly path?: string;
  /** The part read, for a `sed -n A,Bp` or `head -n N` style read. */
  readonly selector?: string;
  readonly search: boolean;
  readonly transient: boolean;
  /** Why the shell parser rejected the command, when it did (the command is then treated as non-idempotent). */
  readonly parseError?: string;
}

function words(segment: string): string[] {
  return segment.trim().split(/\s+/).filter(Boolean).map((w) => w.replace(/^['"]|['"]$/g, ''));
}

function classify(command: string): ShellReading {
  const text = command.trim();
  const segments = text.split(/\|\||&&|;|\|/).map((s) => s.trim()).filter(Boolean);
  let allRead = segments.length > 0 && !/(^|[^2&])>(?!&)/.test(text.replace(/2>&1|>\s*\/dev\/null/g, '')) && !/<</.test(text);
  let search = false;
  let transient = false;
  for (const seg of segments) {
    const [program = '', sub = ''] = words(seg);
    if (program === 'cd') continue;
    if (TRANSIENT.has(program) || (program === 'git' && sub === 'status') || ((program === 'docker' || program === 'kubectl') && ['ps', 'get', 'top', 'logs'].includes(sub))) transient = true;
    if (SEARCHERS.has(program)) search = true;
    const read = READERS.has(program) || (program === 'sed' && /\s-n\s/.test(` ${seg} `) && !/\s-i/.test(seg)) || (program === 'git' && GIT_READS.has(sub)) || TRANSIENT.has(program);
    if (!read) allRead = false;
  }
  const first = segments.filter((s) => words(s)[0] !== 'cd');
  let path: string | undefined;
  let selector: string | undefined;
  if (allRead && first.length === 1) {
    const w = words(first[0]!);
    const program = w[0]!;
    const operands = w.slice(1).filter((x) => !x.startsWith('-') && !/^\d+$/.test(x));
    if (FILE_READERS.has(program) && operands.length === 1) {
      path = operands[0];
      const n = w.find((x) => /^-n\d*$/.test(x) || /^-\d+$/.test(x));
      if (n && program !== 'nl') selector = `${program} ${w.slice(1, w.indexOf(operands[0]!)).join(' ')}`.trim();
    } else if (program === 'sed' && operands.length === 2) {
      path = operands[1];
      selector = `sed -n ${operands[0]}`;
    }
  }
  return { kind: allRead ? 'read' : 'exec', ...(path ? { path } : {}), ...(selector ? { selector } : {}), search, transient };
}

// Each parse instantiates the parser's WASM module (milliseconds), and recorded sessions repeat commands often.
const parses = new Map<string, Promise<string | undefined>>();

function parseError(command: string): Promise<string | undefined> {
  let p = parses.get(command);
  if (!p) {
    p = parse(command).then(() => undefined, (e: unknown) => (e instanceof Error ? e.message : String(e)));
    parses.set(command, p);
  }
  return p;
}

export async function readShell(command: string): Promise<ShellReading> {
  const error = await parseError(command);
  if (error !== undefined) return { kind: 'exec', search: false, transient: false, parseError: error };
  return classify(command);
}

/** A path as one identity: `./a/b` and `a/b` are the same file; an absolute one is resolved against nothing. */
export function normalisePath(path: string, cwd?: string): string {
  const p = path.replace(/^\.\//, '');
  if (p.startsWith('/') || !cwd) return p;
  return `${cwd.replace(/\/$/, '')}/${p}`;
}
