// The structure of a recorded shell command: which simple commands it runs (also inside subshells, groups, loops
// and command or process substitutions), with their words unquoted, their redirections, whether their output is
// piped on, and the directory a `cd` before them moved to. The maintained parser (mvdan/sh through sh-syntax)
// decides whether the text is a valid bash program and gives its canonical form (comments dropped, line
// continuations joined, backticks as `$(...)`); sh-syntax serialises only node spans, not node types or words, so
// the canonical text is then split here by the shell's quoting rules. A construct this reader does not model
// (`case`, function definitions, arithmetic commands) is reported as such, never guessed.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { getProcessor } from 'sh-syntax';

export interface Word {
  /** The word with its quotes removed; expansions (`$x`, `$(...)`) stay as written. */
  readonly value: string;
  /** Holds no expansion: its value is what the shell passes. */
  readonly literal: boolean;
  /** Holds an unquoted glob character, so it may name several files. */
  readonly glob: boolean;
}

export interface Redirect {
  /** The operator with its file descriptor, as written: `>`, `2>`, `>>`, `&>`, `<`, `<<`, `2>&1`... */
  readonly op: string;
  readonly target: Word;
}

export interface SimpleCommand {
  readonly words: readonly Word[];
  readonly redirects: readonly Redirect[];
  /** Its standard output goes into a pipe (what it printed is not what the model saw). */
  readonly pipedOut: boolean;
  /** It runs inside a command or process substitution, so its output became part of another command's words. */
  readonly substituted: boolean;
  /** The directory a preceding literal `cd` moved to, when one did. */
  readonly cwd?: string;
}

export interface ShellScript {
  readonly commands: readonly SimpleCommand[];
  /** Constructs present that this reader does not model (`case`, a function definition, `((...))`). */
  readonly unmodelled: readonly string[];
}

export type ShellParse =
  | { readonly ok: true; readonly script: ShellScript }
  | { readonly ok: false; readonly error: string };

const RESERVED = new Set(['if', 'then', 'elif', 'else', 'fi', 'do', 'done', 'while', 'until', '{', '}', '!', 'time']);

type Token =
  | { readonly t: 'word'; readonly word: Word; readonly subs: readonly string[] }
  | { readonly t: 'op'; readonly op: string }
  | { readonly t: 'redir'; readonly op: string };

/** Splits canonical shell text into words, operators and redirections, skipping here-document bodies. */
function lex(text: string): Token[] {
  const out: Token[] = [];
  const heredocs: { delim: string; strip: boolean }[] = [];
  let i = 0;
  const n = text.length;
  /** The end of a balanced `(...)` starting at `start` (the index of `(`), honouring quotes inside. */
  const closing = (start: number): number => {
    let depth = 0;
    for (let j = start; j < n; j++) {
      const c = text[j]!;
      if (c === '\\') {
        j++;
        continue;
      }
      if (c === "'") {
        j = text.indexOf("'", j + 1);
        if (j < 0) return n;
        continue;
      }
      if (c === '"') {
        j = endOfDouble(j);
        continue;
      }
      if (c === '(') depth++;
      else if (c === ')' && --depth === 0) return j;
    }
    return n;
  };
  const endOfDouble = (start: number): number => {
    for (let j = start + 1; j < n; j++) {
      const c = text[j]!;
      if (c === '\\') {
        j++;
        continue;
      }
      if (c === '$' && text[j + 1] === '(') {
        j = closing(j + 1);
        continue;
      }
      if (c === '"') return j;
    }
    return n;
  };
  while (i < n) {
    const c = text[i]!;
    if (c === ' ' || c === '\t') {
      i++;
      continue;
    }
    if (c === '\n') {
      out.push({ t: 'op', op: ';' });
      i++;
      // Here-document bodies follow the line that opened them: data for the command, never commands.
      for (const h of heredocs.splice(0)) {
        while (i < n) {
          const end = text.indexOf('\n', i);
          const line = text.slice(i, end < 0 ? n : end);
          i = end < 0 ? n : end + 1;
          if ((h.strip ? line.replace(/^\t+/, '') : line) === h.delim) break;
        }
      }
      continue;
    }
    const redir = /^(\d*)(<<<|<<-|<<|&>>|&>|>>|>\||>&|<&|<>|>|<)/.exec(text.slice(i, i + 6));
    // `<(` and `>(` open a process substitution, which is part of a word.
    if (redir && !(/^[<>]$/.test(redir[0]) && text[i + 1] === '(')) {
      out.push({ t: 'redir', op: redir[0] });
      i += redir[0].length;
      continue;
    }
    const op = /^(\|\||\|&|&&|;;|\||;|&|\(|\))/.exec(text.slice(i, i + 2));
    if (op) {
      out.push({ t: 'op', op: op[0] });
      i += op[0].length;
      continue;
    }
    // A word: runs until unquoted blank or operator character.
    let value = '';
    let literal = true;
    let glob = false;
    const subs: string[] = [];
    while (i < n) {
      const ch = text[i]!;
      if (' \t\n|;&()<>'.includes(ch)) {
        if ((ch === '<' || ch === '>') && text[i + 1] === '(') {
          const end = closing(i + 1);
          subs.push(text.slice(i + 2, end));
          value += text.slice(i, end + 1);
          literal = false;
          i = end + 1;
          continue;
        }
        break;
      }
      if (ch === '\\') {
        value += text[i + 1] ?? '';
        i += 2;
        continue;
      }
      if (ch === "'") {
        const end = text.indexOf("'", i + 1);
        value += text.slice(i + 1, end < 0 ? n : end);
        i = end < 0 ? n : end + 1;
        continue;
      }
      if (ch === '"') {
        const end = endOfDouble(i);
        const inner = text.slice(i + 1, end);
        for (const m of inner.matchAll(/\$\(/g))
          subs.push(text.slice(i + 1 + m.index + 2, closing(i + 1 + m.index + 1)));
        if (/\$[\w{(@*#?!$-]|`/.test(inner)) literal = false;
        value += inner.replace(/\\(["\\$`])/g, '$1');
        i = end + 1;
        continue;
      }
      if (ch === '$' && text[i + 1] === '(') {
        const end = closing(i + 1);
        if (text[i + 2] !== '(') subs.push(text.slice(i + 2, end));
        value += text.slice(i, end + 1);
        literal = false;
        i = end + 1;
        continue;
      }
      if (ch === '$' && /[\w{@*#?!$-]/.test(text[i + 1] ?? '')) literal = false;
      if ('*?['.includes(ch)) glob = true;
      value += ch;
      i++;
    }
    out.push({ t: 'word', word: { value, literal, glob }, subs });
    const last = out[out.length - 2];
    if (last?.t === 'redir' && /<<-?$/.test(last.op)) heredocs.push({ delim: value, strip: last.op.endsWith('-') });
  }
  return out;
}

function build(
  text: string,
  substituted: boolean,
  startCwd: string | undefined,
  into: { commands: SimpleCommand[]; unmodelled: Set<string> },
): void {
  const tokens = lex(text);
  const cwds: (string | undefined)[] = [];
  let cwd = startCwd;
  /** Commands opened since each unclosed `(`, so a pipe after `)` marks the whole group as piped. */
  const groups: number[] = [];
  let words: Word[] = [];
  let redirects: Redirect[] = [];
  let skipping = false; // inside a `for NAME in ...` header
  const flush = (pipedOut: boolean) => {
    if (words.length || redirects.length) {
      into.commands.push({ words, redirects, pipedOut, substituted, ...(cwd !== undefined ? { cwd } : {}) });
      const [program, target] = words;
      if (program?.value === 'cd' && words.length <= 2) {
        cwd = !target ? '~' : target.literal && !target.value.startsWith('-') ? joinDir(cwd, target.value) : undefined;
      }
    }
    words = [];
    redirects = [];
  };
  for (let k = 0; k < tokens.length; k++) {
    const tok = tokens[k]!;
    if (tok.t === 'word') {
      for (const s of tok.subs) build(s, true, cwd, into);
      if (skipping) continue;
      const atStart = words.length === 0;
      if (atStart && RESERVED.has(tok.word.value) && tok.word.literal) continue;
      if (atStart && tok.word.value === 'for') {
        skipping = true;
        continue;
      }
      if (
        atStart &&
        (tok.word.value === 'case' ||
          tok.word.value === 'select' ||
          tok.word.value === 'function' ||
          tok.word.value === 'coproc')
      )
        into.unmodelled.add(tok.word.value);
      if (atStart && tok.word.value === '[[') {
        // A conditional expression: its `<`, `>`, `&&` are comparisons, not redirections or lists.
        const parts: Word[] = [tok.word];
        while (k + 1 < tokens.length) {
          const next = tokens[++k]!;
          if (next.t === 'word' && next.word.value === ']]') break;
          parts.push(next.t === 'word' ? next.word : { value: next.op, literal: true, glob: false });
        }
        words = parts;
        continue;
      }
      words.push(tok.word);
    } else if (tok.t === 'redir') {
      const next = tokens[k + 1];
      if (next?.t === 'word') {
        for (const s of next.subs) build(s, true, cwd, into);
        redirects.push({ op: tok.op, target: next.word });
        k++;
      }
    } else {
      const op = tok.op;
      if (op === '(' && words.length > 0) {
        into.unmodelled.add('function definition');
        flush(false);
        continue;
      }
      if (op === '(' && tokens[k + 1]?.t === 'op' && (tokens[k + 1] as { op: string }).op === '(')
        into.unmodelled.add('arithmetic command');
      if (op === ';;') into.unmodelled.add('case');
      if (skipping && (op === ';' || op === '&')) {
        skipping = false;
        continue;
      }
      flush(op === '|' || op === '|&');
      if (op === '(') {
        groups.push(into.commands.length);
        cwds.push(cwd);
      }
      if (op === ')') {
        const start = groups.pop() ?? 0;
        cwd = cwds.pop();
        const after = tokens[k + 1];
        const pipes = after?.t === 'op' && (after.op === '|' || after.op === '|&');
        if (pipes)
          for (let j = start; j < into.commands.length; j++)
            into.commands[j] = { ...into.commands[j]!, pipedOut: true };
        // Redirections after `)` apply to the whole group: recorded as a command of their own.
        while (tokens[k + 1]?.t === 'redir' && tokens[k + 2]?.t === 'word') {
          redirects.push({ op: (tokens[k + 1] as { op: string }).op, target: (tokens[k + 2] as { word: Word }).word });
          k += 2;
        }
        flush(false);
      }
    }
  }
  flush(false);
}

function joinDir(cwd: string | undefined, dir: string): string {
  if (dir.startsWith('/') || dir.startsWith('~') || cwd === undefined) return dir.replace(/\/$/, '') || '/';
  return `${cwd.replace(/\/$/, '')}/${dir.replace(/^\.\//, '').replace(/\/$/, '')}`;
}

// sh-syntax's own print() compiles its WebAssembly module (0.7 MB) again for every parse, tens of milliseconds each;
// here it is compiled once per process and each parse gets a fresh instance of it, as print() gives it, so no parse
// sees another's state.
let compiled: Promise<WebAssembly.Module> | undefined;
const processor = getProcessor((imports: WebAssembly.Imports) => {
  compiled ??= WebAssembly.compile(readFileSync(createRequire(import.meta.url).resolve('sh-syntax/main.wasm')));
  return compiled.then((module) => WebAssembly.instantiate(module, imports));
});

// Each parse still starts the parser's Go runtime (milliseconds), and recorded sessions repeat commands often.
const cache = new Map<string, Promise<ShellParse>>();

/** Parses a command; a text the shell grammar rejects gives the parser's message. */
export function parseShell(command: string): Promise<ShellParse> {
  let p = cache.get(command);
  if (!p) {
    p = processor(command, { print: true, singleLine: true, keepComments: false }).then(
      (canonical): ShellParse => {
        const into = { commands: [] as SimpleCommand[], unmodelled: new Set<string>() };
        try {
          build(canonical, false, undefined, into);
        } catch {
          // Valid bash this reader cannot follow: said so, and the command is then non-idempotent.
          return { ok: true, script: { commands: [], unmodelled: ['a structure the reader cannot follow'] } };
        }
        return { ok: true, script: { commands: into.commands, unmodelled: [...into.unmodelled] } };
      },
      (e: unknown): ShellParse => ({ ok: false, error: e instanceof Error ? e.message : String(e) }),
    );
    cache.set(command, p);
  }
  return p;
}
