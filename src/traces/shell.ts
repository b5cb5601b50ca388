// What a recorded shell command observably is, from its text alone: its side-effect class, the files it read (and
// which view of each), the files it changed, whether it searched or observed transient state. Conservative by
// design: a command is a read only if every simple command in it (substitutions, subshells and loops included) is a
// known reader; anything unknown may change the world and is non-idempotent, and a command the parser rejects is
// non-idempotent with the parser's message kept.
import type { ReadSelector, SideEffectClass, Source, Status } from '../fixture/schema.js';
import { parseShell, type Redirect, type SimpleCommand, type Word } from './shell-syntax.js';

export interface ShellRead {
  /** As written, resolved against a preceding literal `cd`. */
  readonly path: string;
  readonly selector: ReadSelector;
}

export interface ShellReading {
  readonly kind: 'read' | 'exec';
  /** The one file the command read when it read exactly one and showed it (a plain reader, not piped on). */
  readonly path?: string;
  /** The view of that file the output shows; absent for the whole file (as in a Source). */
  readonly selector?: ReadSelector;
  readonly search: boolean;
  readonly transient: boolean;
  readonly sideEffect: SideEffectClass;
  /** Every file a reader in the command read, with its view. */
  readonly reads: readonly ShellRead[];
  /** Every file the command writes, truncates or deletes, as written (literal targets only). */
  readonly writes: readonly string[];
  /** Why the shell parser rejected the command, when it did. */
  readonly parseError?: string;
  /** Constructs present that the reader does not model; the command is then non-idempotent. */
  readonly unmodelled?: readonly string[];
}

const RANK: Record<SideEffectClass, number> = { pure: 0, 'read-mutable': 1, 'non-idempotent': 2, destructive: 3 };
const worst = (a: SideEffectClass, b: SideEffectClass): SideEffectClass => (RANK[b] > RANK[a] ? b : a);

/** Programs whose output depends on nothing but their arguments. */
const PURE = new Set([
  'echo',
  'printf',
  'true',
  'false',
  ':',
  'sleep',
  'basename',
  'dirname',
  'seq',
  'expr',
  'exit',
  'return',
  'realpath',
  'readlink',
]);
/** Commands whose output describes a moment (processes, clocks, ports, containers), not a durable source. */
const TRANSIENT = new Set([
  'ps',
  'top',
  'htop',
  'date',
  'uptime',
  'free',
  'df',
  'du',
  'netstat',
  'ss',
  'lsof',
  'jobs',
  'nvidia-smi',
  'vmstat',
  'iostat',
  'pgrep',
]);
/** Readers of state that print a derived view of their file operands (never the file as it is). */
const DERIVED_READERS = new Set([
  'wc',
  'file',
  'stat',
  'md5sum',
  'sha1sum',
  'sha256sum',
  'cksum',
  'diff',
  'cmp',
  'comm',
  'tac',
  'rev',
  'strings',
  'xxd',
  'hexdump',
  'od',
  'jq',
  'cut',
  'column',
  'fold',
  'tr',
  'paste',
  'join',
  'fmt',
  'expand',
  'unexpand',
  'iconv',
]);
/** Readers of the environment with no file operands. */
const STATE_READERS = new Set([
  'pwd',
  'whoami',
  'id',
  'uname',
  'hostname',
  'which',
  'type',
  'printenv',
  'env',
  'locale',
  'groups',
  'tty',
  'nproc',
  'arch',
  'cd',
  'pushd',
  'popd',
  'dirs',
  'test',
  '[',
  '[[',
  'history',
  'help',
  'man',
  'apropos',
  'whereis',
  'dpkg-query',
  'read',
]);
const LISTERS = new Set(['ls', 'tree', 'dir', 'exa', 'eza']);
const SEARCHERS = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'git-grep']);
/** Removers of files: what they touch is gone. */
const REMOVERS = new Set(['rm', 'rmdir', 'unlink', 'shred', 'srm']);
/** Writers whose every operand is a target. */
const TOUCHERS = new Set(['touch', 'mkdir', 'chmod', 'chown', 'chgrp', 'mkfifo']);
/** Wrappers that run the rest of their words as a command. */
const WRAPPERS: Record<string, RegExp> = {
  sudo: /^-[ugCDhpr]$/,
  env: /^-[uCS]$/,
  nice: /^-n$/,
  nohup: /^$/,
  time: /^$/,
  command: /^$/,
  stdbuf: /^$/,
  exec: /^-a$/,
  builtin: /^$/,
};
/** Options of the searchers and readers that take the next word as their value. */
const OPTION_ARGS: Record<string, Set<string>> = {
  grep: new Set([
    '-e',
    '-f',
    '-m',
    '-A',
    '-B',
    '-C',
    '--include',
    '--exclude',
    '--exclude-dir',
    '-d',
    '-D',
    '--color',
    '--max-count',
    '--regexp',
    '--file',
  ]),
  rg: new Set([
    '-e',
    '-f',
    '-g',
    '--glob',
    '-t',
    '--type',
    '-T',
    '-m',
    '-A',
    '-B',
    '-C',
    '-M',
    '--max-count',
    '--regexp',
    '-r',
    '--replace',
    '--type-add',
    '-j',
    '--max-depth',
    '-d',
  ]),
  ag: new Set(['-G', '--ignore', '-A', '-B', '-C', '-m', '--depth']),
  head: new Set(['-n', '-c', '--lines', '--bytes']),
  tail: new Set(['-n', '-c', '--lines', '--bytes', '-s', '--pid']),
  sed: new Set(['-e', '-f', '-l', '--expression', '--file']),
  sort: new Set(['-o', '-k', '-t', '-S', '-T', '--output', '--key', '--field-separator', '--parallel']),
  awk: new Set(['-F', '-v', '-f']),
  cut: new Set(['-d', '-f', '-c', '-b']),
  jq: new Set(['--arg', '--argjson', '--slurpfile', '--rawfile', '-L']),
  diff: new Set(['-U', '-C', '--label', '-x', '--exclude', '-I']),
  ls: new Set(['-I', '--ignore', '-w', '--width', '--sort', '--time-style']),
  tree: new Set(['-L', '-I', '-P', '-o']),
  xargs: new Set([
    '-I',
    '-n',
    '-P',
    '-d',
    '-L',
    '-s',
    '-E',
    '-a',
    '--max-args',
    '--max-procs',
    '--delimiter',
    '--arg-file',
  ]),
  timeout: new Set(['-s', '-k', '--signal', '--kill-after']),
  chmod: new Set(['--reference']),
};

interface Finding {
  cls: SideEffectClass;
  reads: ShellRead[];
  writes: string[];
  search: boolean;
  transient: boolean;
  /** This command shows one file as it is (a plain reader), so its read can be the reading's `path`. */
  shows: boolean;
}

const finding = (cls: SideEffectClass, extra: Partial<Finding> = {}): Finding => ({
  cls,
  reads: [],
  writes: [],
  search: false,
  transient: false,
  shows: false,
  ...extra,
});

/** Non-option words: options (and the values of those in `withArg`) are skipped; `--` ends the options. */
function operands(args: readonly Word[], withArg: Set<string> = new Set()): Word[] {
  const out: Word[] = [];
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (options && v === '--') {
      options = false;
      continue;
    }
    if (options && v.startsWith('-') && v !== '-') {
      if (withArg.has(v)) i++;
      continue;
    }
    out.push(args[i]!);
  }
  return out;
}

function resolve(path: string, cwd: string | undefined): string {
  if (!cwd || path.startsWith('/') || path.startsWith('~')) return path;
  return `${cwd.replace(/\/$/, '')}/${path.replace(/^\.\//, '')}`;
}

/** Literal single-file names among words; a glob or an expansion names no one file. */
const files = (words: readonly Word[], cwd: string | undefined): string[] =>
  words.filter((w) => w.literal && !w.glob && w.value !== '-' && w.value !== '').map((w) => resolve(w.value, cwd));

const text = (words: readonly Word[]): string => words.map((w) => w.value).join(' ');

/** The lines `head` shows: 1..N for `-n N`, `-N`, `--lines=N` or its default of 10; anything else is another view. */
function headSelector(args: readonly Word[]): ReadSelector {
  let n = 10;
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    const m = /^(?:-n|--lines=?)(.*)$/.exec(v) ?? /^-(\d+)$/.exec(v);
    if (/^(-c|--bytes)/.test(v)) return { kind: 'other', query: `head ${text(args)}` };
    if (!m) continue;
    const value = m[1] === '' && !/^-\d+$/.test(v) ? (args[++i]?.value ?? '') : m[1]!;
    if (!/^\d+$/.test(value)) return { kind: 'other', query: `head ${text(args)}` };
    n = Number(value);
  }
  return n > 0 ? { kind: 'lines', from: 1, to: n } : { kind: 'other', query: `head ${text(args)}` };
}

/** `tail -n +K` shows lines K to the end; the last N lines of a file of unknown length are another view. */
function tailSelector(args: readonly Word[]): ReadSelector {
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    const m = /^(?:-n|--lines=?)(.*)$/.exec(v);
    if (!m) continue;
    const value = m[1] === '' ? (args[i + 1]?.value ?? '') : m[1]!;
    const from = /^\+(\d+)$/.exec(value);
    if (from && Number(from[1]) > 0) return { kind: 'lines', from: Number(from[1]) };
  }
  return { kind: 'other', query: `tail ${text(args)}` };
}

/** A `sed -n` script that prints one line range (`10,20p`, `5p`, `10,$p`) shows those lines; another script, another view. */
function sedSelector(script: string): ReadSelector {
  const m = /^\s*(\d+)(?:\s*,\s*(\d+|\$))?\s*p\s*;?\s*$/.exec(script);
  if (!m) return { kind: 'other', query: `sed -n ${script}` };
  const from = Number(m[1]);
  const to = m[2] === undefined ? from : m[2] === '$' ? undefined : Number(m[2]);
  if (from < 1 || (to !== undefined && to < from)) return { kind: 'other', query: `sed -n ${script}` };
  return { kind: 'lines', from, ...(to !== undefined ? { to } : {}) };
}

function sed(args: readonly Word[], cwd: string | undefined): Finding {
  const inPlace = args.some(
    (w) => /^(-i|--in-place)/.test(w.value) || (/^-[a-zA-Z]*i/.test(w.value) && !w.value.startsWith('--')),
  );
  const scripts = args.flatMap((w, i) => (/^(-e|--expression)$/.test(args[i - 1]?.value ?? '') ? [w.value] : []));
  const ops = operands(args, OPTION_ARGS['sed']);
  const script = scripts.length ? scripts.join(';') : (ops.shift()?.value ?? '');
  const targets = files(ops, cwd);
  if (inPlace) return finding('non-idempotent', { writes: targets });
  // `w file` writes a file and `e` runs a command: the script itself is then not a read.
  if (/(^|[;{}\s\d/$])[wWe](\s|$)/.test(script)) return finding('non-idempotent');
  const quiet = args.some(
    (w) =>
      (/^-[a-zA-Z]*n/.test(w.value) && !w.value.startsWith('--')) || w.value === '--quiet' || w.value === '--silent',
  );
  const selector = quiet ? sedSelector(script) : { kind: 'other' as const, query: `sed ${script}` };
  return finding('read-mutable', { reads: targets.map((path) => ({ path, selector })), shows: quiet });
}

function find(args: readonly Word[], cwd: string | undefined): Promise<Finding> | Finding {
  const firstPredicate = args.findIndex((w) => /^[-(!]/.test(w.value) && w.value !== '-');
  const roots = files(firstPredicate < 0 ? args : args.slice(0, firstPredicate), cwd);
  const scope = roots.length ? roots : [resolve('.', cwd)];
  const base = finding('read-mutable', {
    reads: scope.map((path) => ({ path, selector: { kind: 'search', query: `find ${text(args)}` } })),
    search: true,
  });
  if (args.some((w) => w.value === '-delete')) return { ...base, cls: 'destructive', writes: scope };
  if (args.some((w) => /^-(fprint|fprint0|fprintf|fls)$/.test(w.value))) return { ...base, cls: 'non-idempotent' };
  const execs = args.flatMap((w, i) => (/^-(exec|execdir|ok|okdir)$/.test(w.value) ? [i] : []));
  if (execs.length === 0) return base;
  return Promise.all(
    execs.map((i) => {
      const rest = args.slice(i + 1);
      const end = rest.findIndex((w) => w.value === ';' || w.value === '+');
      // `{}` stands for each file found: not a file of its own name.
      const words = (end < 0 ? rest : rest.slice(0, end)).map((w) =>
        w.value.includes('{}') ? { ...w, literal: false } : w,
      );
      return simple({ words, redirects: [], pipedOut: true, substituted: false, ...(cwd ? { cwd } : {}) });
    }),
  ).then((inner) => {
    let cls = base.cls;
    const writes = [...base.writes];
    for (const f of inner) {
      cls = worst(cls, f.cls);
      writes.push(...f.writes, ...(RANK[f.cls] >= RANK['non-idempotent'] ? scope : []));
    }
    return { ...base, cls, writes };
  });
}

const GIT_READS = new Set([
  'diff',
  'log',
  'show',
  'status',
  'blame',
  'ls-files',
  'ls-tree',
  'rev-parse',
  'rev-list',
  'cat-file',
  'describe',
  'shortlog',
  'grep',
  'reflog',
  'whatchanged',
  'merge-base',
  'name-rev',
  'show-ref',
  'for-each-ref',
  'count-objects',
  'var',
  'help',
  'version',
]);

function git(args: readonly Word[]): Finding {
  let i = 0;
  // Global options before the subcommand; -C and -c take a value.
  while (i < args.length && args[i]!.value.startsWith('-'))
    i += /^-(C|c)$/.test(args[i]!.value) || args[i]!.value === '--git-dir' || args[i]!.value === '--work-tree' ? 2 : 1;
  const sub = args[i]?.value ?? '';
  const rest = args.slice(i + 1).map((w) => w.value);
  const has = (...flags: string[]) =>
    rest.some(
      (v) =>
        flags.includes(v) || flags.some((f) => /^-[a-zA-Z]$/.test(f) && /^-[a-zA-Z]+$/.test(v) && v.includes(f[1]!)),
    );
  if (sub === 'status') return finding('read-mutable', { transient: true });
  if (sub === 'grep') return finding('read-mutable', { search: true });
  if (GIT_READS.has(sub)) return finding('read-mutable');
  if (sub === 'branch') {
    if (has('-D', '-d', '--delete', '-M', '--force', '-f')) return finding('destructive');
    const listing =
      rest.every((v) => v.startsWith('-')) &&
      !has('-m', '--move', '-c', '--copy', '-u', '--set-upstream-to', '--unset-upstream', '--edit-description');
    return finding(listing ? 'read-mutable' : 'non-idempotent');
  }
  if (sub === 'tag')
    return finding(
      has('-d', '--delete')
        ? 'destructive'
        : rest.length === 0 || has('-l', '--list')
          ? 'read-mutable'
          : 'non-idempotent',
    );
  if (sub === 'stash')
    return finding(
      ['drop', 'clear'].includes(rest[0] ?? '')
        ? 'destructive'
        : ['list', 'show'].includes(rest[0] ?? '')
          ? 'read-mutable'
          : 'non-idempotent',
    );
  if (sub === 'remote')
    return finding(
      rest.length === 0 ||
        rest.every((v) => v === '-v' || v === '--verbose') ||
        rest[0] === 'show' ||
        rest[0] === 'get-url'
        ? 'read-mutable'
        : 'non-idempotent',
    );
  if (sub === 'config')
    return finding(
      has('--get', '--get-all', '--list', '-l', '--get-regexp') || rest.filter((v) => !v.startsWith('-')).length === 1
        ? 'read-mutable'
        : 'non-idempotent',
    );
  // Discarding uncommitted work or history cannot be undone from the repository.
  if (sub === 'reset' && has('--hard', '--merge', '--keep')) return finding('destructive');
  if (sub === 'clean' && has('-f', '--force')) return finding('destructive');
  if (sub === 'checkout' && (has('-f', '--force') || rest.includes('--') || rest.includes('.')))
    return finding('destructive');
  if (sub === 'restore' && !(has('--staged', '-S') && !has('--worktree', '-W'))) return finding('destructive');
  if (
    sub === 'push' &&
    (has('-f', '--force', '--force-with-lease', '--delete', '-d', '--mirror', '--prune') ||
      rest.some((v) => v.startsWith('+') || v.startsWith(':') || v.startsWith('--force')))
  )
    return finding('destructive');
  if (sub === 'rm') return finding('destructive');
  return finding('non-idempotent');
}

/** Words after a wrapper's own options (`sudo -u x`, `env A=1`, `timeout 10`, `xargs -I {}`). */
function unwrap(words: readonly Word[]): readonly Word[] {
  let w = words;
  for (;;) {
    while (w.length > 1 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(w[0]!.value)) w = w.slice(1);
    const program = w[0]?.value ?? '';
    if (
      program in WRAPPERS &&
      !(program === 'command' && /^-[vV]$/.test(w[1]?.value ?? '')) &&
      !(program === 'env' && w.length === 1)
    ) {
      let i = 1;
      while (i < w.length && (w[i]!.value.startsWith('-') || (program === 'env' && /^[A-Za-z_]\w*=/.test(w[i]!.value))))
        i += WRAPPERS[program]!.test(w[i]!.value) ? 2 : 1;
      if (i >= w.length) return w;
      w = w.slice(i);
      continue;
    }
    if (program === 'timeout') {
      const rest = operands(w.slice(1), OPTION_ARGS['timeout']);
      const idx = rest[1] ? w.indexOf(rest[1]) : -1;
      if (idx < 0) return w;
      w = w.slice(idx);
      continue;
    }
    if (program === 'xargs') {
      let i = 1;
      while (i < w.length && w[i]!.value.startsWith('-')) i += OPTION_ARGS['xargs']!.has(w[i]!.value) ? 2 : 1;
      // `xargs` alone runs echo.
      w = i >= w.length ? [{ value: 'echo', literal: true, glob: false }] : w.slice(i);
      continue;
    }
    return w;
  }
}

async function simple(cmd: SimpleCommand): Promise<Finding> {
  const out = redirections(cmd.redirects, cmd.cwd);
  const inner = await program(cmd);
  const shown =
    !cmd.pipedOut &&
    !cmd.substituted &&
    !cmd.redirects.some((r) => /^\d*(>|>>|&>|&>>|>\|)$/.test(r.op) && !isSink(r.target));
  const reads = shown
    ? inner.reads
    : inner.reads.map((r) => ({
        path: r.path,
        selector:
          r.selector.kind === 'search' ? r.selector : { kind: 'other' as const, query: 'output piped or redirected' },
      }));
  return {
    cls: worst(inner.cls, out.cls),
    reads: [...reads, ...out.reads],
    writes: [...inner.writes, ...out.writes],
    search: inner.search,
    transient: inner.transient,
    shows: inner.shows && shown,
  };
}

const isSink = (w: Word): boolean => w.literal && /^(\/dev\/(null|stdout|stderr|tty)|&?[0-2]|-)$/.test(w.value);

function redirections(redirects: readonly Redirect[], cwd: string | undefined): Finding {
  const f = finding('pure');
  for (const r of redirects) {
    const op = r.op.replace(/^\d+/, '');
    if (op === '>&' || op === '<&') {
      if (/^\d+$|^-$/.test(r.target.value)) continue;
    }
    if (op === '<<' || op === '<<-' || op === '<<<') continue;
    if (op === '<') {
      f.cls = worst(f.cls, 'read-mutable');
      if (r.target.literal && !r.target.glob)
        f.reads.push({ path: resolve(r.target.value, cwd), selector: { kind: 'other', query: 'standard input' } });
      continue;
    }
    if (isSink(r.target)) continue;
    f.cls = worst(f.cls, 'non-idempotent');
    if (r.target.literal && !r.target.glob) f.writes.push(resolve(r.target.value, cwd));
  }
  return f;
}

async function program(cmd: SimpleCommand): Promise<Finding> {
  const words = unwrap(cmd.words);
  const cwd = cmd.cwd;
  if (words.length === 0) return finding('pure');
  // A bare assignment changes the shell's state for every later command.
  if (words.every((w) => /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/.test(w.value))) return finding('non-idempotent');
  const name = words[0]!.value.replace(/^.*\//, '');
  const args = words.slice(1);
  if (!words[0]!.literal) return finding('non-idempotent');
  if ((name === 'bash' || name === 'sh' || name === 'zsh' || name === 'dash') && args[0]?.value === '-c' && args[1]) {
    const nested = await readShell(args[1].value);
    return finding(nested.sideEffect, {
      reads: [...nested.reads],
      writes: [...nested.writes],
      search: nested.search,
      transient: nested.transient,
    });
  }
  if (PURE.has(name)) return finding('pure');
  if (TRANSIENT.has(name)) return finding('read-mutable', { transient: true });
  if (name === 'command' || STATE_READERS.has(name)) return finding('read-mutable');
  if (name === 'cat' || name === 'nl' || name === 'less' || name === 'more' || name === 'bat') {
    const targets = files(operands(args), cwd);
    return finding('read-mutable', {
      reads: targets.map((path) => ({ path, selector: { kind: 'whole' } })),
      shows: true,
    });
  }
  if (name === 'head')
    return finding('read-mutable', {
      reads: files(operands(args, OPTION_ARGS['head']), cwd).map((path) => ({ path, selector: headSelector(args) })),
      shows: true,
    });
  if (name === 'tail') {
    if (args.some((w) => /^-[a-zA-Z]*[fF]$|^--follow/.test(w.value)))
      return finding('read-mutable', { transient: true });
    return finding('read-mutable', {
      reads: files(operands(args, OPTION_ARGS['tail']), cwd).map((path) => ({ path, selector: tailSelector(args) })),
      shows: true,
    });
  }
  if (name === 'sed') return sed(args, cwd);
  if (name === 'find' || name === 'fd')
    return name === 'find'
      ? find(args, cwd)
      : finding('read-mutable', {
          search: true,
          ...(args.some((w) => /^(-x|-X|--exec|--exec-batch)$/.test(w.value)) ? { cls: 'non-idempotent' } : {}),
        });
  if (SEARCHERS.has(name)) {
    const ops = operands(
      args,
      OPTION_ARGS[name === 'egrep' || name === 'fgrep' || name === 'ack' ? 'grep' : name] ?? new Set(),
    );
    // The pattern is the first operand unless -e or -f gave it.
    if (!args.some((w) => /^(-e|--regexp|-f|--file)$/.test(w.value))) ops.shift();
    const recursive =
      (name !== 'grep' && name !== 'egrep' && name !== 'fgrep') ||
      args.some(
        (w) =>
          (/^-[a-zA-Z]*[rR]/.test(w.value) && !w.value.startsWith('--')) ||
          /^--(recursive|dereference-recursive)$/.test(w.value),
      );
    const targets = files(ops, cwd);
    const scope = targets.length || !recursive ? targets : [resolve('.', cwd)];
    // The view is the whole command: context options (-A10 vs -A20) and the pattern both change what is shown.
    return finding('read-mutable', {
      reads: scope.map((path) => ({ path, selector: { kind: 'search', query: `${name} ${text(args)}` } })),
      search: true,
      shows: !recursive && scope.length === 1,
    });
  }
  if (LISTERS.has(name)) {
    const targets = files(operands(args, OPTION_ARGS[name]), cwd);
    return finding('read-mutable', {
      reads: (targets.length ? targets : [resolve('.', cwd)]).map((path) => ({
        path,
        selector: { kind: 'listing', query: `${name} ${text(args)}`.trim() },
      })),
    });
  }
  if (name === 'sort') {
    const output = args.flatMap((w, i) =>
      /^(-o|--output)$/.test(args[i - 1]?.value ?? '')
        ? [w]
        : /^--output=/.test(w.value)
          ? [{ ...w, value: w.value.slice(9) }]
          : /^-o./.test(w.value)
            ? [{ ...w, value: w.value.slice(2) }]
            : [],
    );
    const reads = files(operands(args, OPTION_ARGS['sort']), cwd).map((path) => ({
      path,
      selector: { kind: 'other' as const, query: `sort ${text(args)}` },
    }));
    return output.length
      ? finding('non-idempotent', { reads, writes: files(output, cwd) })
      : finding('read-mutable', { reads });
  }
  if (name === 'uniq') {
    const ops = files(operands(args, new Set(['-f', '-s', '-w'])), cwd);
    const reads = ops
      .slice(0, 1)
      .map((path) => ({ path, selector: { kind: 'other' as const, query: `uniq ${text(args)}` } }));
    return ops.length > 1
      ? finding('non-idempotent', { reads, writes: ops.slice(1) })
      : finding('read-mutable', { reads });
  }
  if (name === 'awk' || name === 'gawk' || name === 'mawk') {
    const ops = operands(args, OPTION_ARGS['awk']);
    const prog = args.some((w) => w.value === '-f') ? '' : (ops.shift()?.value ?? '');
    // awk writes files with print > "f", runs commands with system() or a pipe to a string.
    if (prog === '' || /\b(system|close)\s*\(|\b(print|printf)\b[^;}]*(>|\|)|\|\s*getline/.test(prog))
      return finding('non-idempotent');
    return finding('read-mutable', {
      reads: files(ops, cwd).map((path) => ({ path, selector: { kind: 'other', query: `awk ${prog}` } })),
    });
  }
  if (DERIVED_READERS.has(name)) {
    const ops = operands(args, OPTION_ARGS[name] ?? new Set());
    if (name === 'jq' && !args.some((w) => /^-[a-zA-Z]*n/.test(w.value))) ops.shift();
    if (name === 'tr') return finding('pure');
    return finding('read-mutable', {
      reads: files(ops, cwd).map((path) => ({ path, selector: { kind: 'other', query: `${name} ${text(args)}` } })),
    });
  }
  if (name === 'tee') {
    const targets = files(operands(args), cwd);
    return targets.length || args.some((w) => !w.literal)
      ? finding('non-idempotent', { writes: targets })
      : finding('pure');
  }
  if (REMOVERS.has(name)) return finding('destructive', { writes: files(operands(args), cwd) });
  if (name === 'truncate')
    return finding('destructive', {
      writes: files(operands(args, new Set(['-s', '--size', '-r', '--reference'])), cwd),
    });
  if (name === 'dd') {
    const of = args.find((w) => w.value.startsWith('of='));
    return of
      ? finding('destructive', { writes: of.literal ? [resolve(of.value.slice(3), cwd)] : [] })
      : finding('read-mutable');
  }
  if (TOUCHERS.has(name)) {
    const ops = operands(args);
    return finding('non-idempotent', { writes: files(name.startsWith('ch') ? ops.slice(1) : ops, cwd) });
  }
  if (name === 'cp' || name === 'ln' || name === 'install' || name === 'rsync' || name === 'scp') {
    const ops = files(operands(args, new Set(['-t', '--target-directory', '-S', '--suffix', '-e'])), cwd);
    return finding('non-idempotent', {
      reads: ops.slice(0, -1).map((path) => ({ path, selector: { kind: 'other', query: name } })),
      writes: ops.slice(-1),
    });
  }
  if (name === 'mv')
    return finding('non-idempotent', {
      writes: files(operands(args, new Set(['-t', '--target-directory', '-S', '--suffix'])), cwd),
    });
  if (name === 'git') return git(args);
  if (name === 'curl') {
    const writes = args.some(
      (w) =>
        /^(-o|-O|--output|--remote-name|-T|--upload-file|-d|--data.*|-F|--form|-X|--request)$/.test(w.value) ||
        /^-[a-zA-Z]*[oOTdFX]$/.test(w.value),
    );
    return finding(writes ? 'non-idempotent' : 'read-mutable');
  }
  if (name === 'wget')
    return finding(
      args.some((w, i) => /^(-O|--output-document)$/.test(args[i - 1]?.value ?? '') && w.value === '-') ||
        args.some((w) => w.value === '-qO-' || w.value === '-O-')
        ? 'read-mutable'
        : 'non-idempotent',
    );
  if (name === 'kill' || name === 'pkill' || name === 'killall') return finding('destructive');
  if (name === 'tar') {
    const mode = args[0]?.value ?? '';
    return finding(
      (/^-?[a-zA-Z]*t/.test(mode) && !/[xc]/.test(mode)) || args.some((w) => w.value === '--list')
        ? 'read-mutable'
        : 'non-idempotent',
    );
  }
  return finding('non-idempotent');
}

function combine(findings: readonly Finding[]): Finding {
  return findings.reduce(
    (acc, f) => ({
      cls: worst(acc.cls, f.cls),
      reads: [...acc.reads, ...f.reads],
      writes: [...acc.writes, ...f.writes],
      search: acc.search || f.search,
      transient: acc.transient || f.transient,
      shows: acc.shows || f.shows,
    }),
    finding('pure'),
  );
}

/** The lines a line-selecting filter keeps of its input (`sed -n A,Bp`, `head -n N`, `tail -n +K`), or identity (`cat`, `nl`). */
function lineFilter(cmd: SimpleCommand): { from: number; to?: number } | 'identity' | undefined {
  const words = unwrap(cmd.words);
  const name = words[0]?.value ?? '';
  const args = words.slice(1);
  if (cmd.redirects.some((r) => !/^\d*>&?$/.test(r.op) || !isSink(r.target))) return undefined;
  if ((name === 'cat' || name === 'nl') && operands(args).length === 0) return 'identity';
  let view: ReadSelector | undefined;
  if (name === 'head' && operands(args, OPTION_ARGS['head']).length === 0) view = headSelector(args);
  if (name === 'tail' && operands(args, OPTION_ARGS['tail']).length === 0) view = tailSelector(args);
  if (
    name === 'sed' &&
    !args.some((w) => /^-[a-zA-Z]*i|^--in-place/.test(w.value)) &&
    args.some((w) => /^-[a-zA-Z]*n/.test(w.value) && !w.value.startsWith('--'))
  ) {
    const ops = operands(args, OPTION_ARGS['sed']);
    if (ops.length === 1) view = sedSelector(ops[0]!.value);
  }
  return view?.kind === 'lines' && view.from !== undefined
    ? { from: view.from, ...(view.to !== undefined ? { to: view.to } : {}) }
    : undefined;
}

/**
 * One file read and cut down to lines by a pipeline of line filters (`nl -ba f | sed -n '10,20p'`, `cat f | head -n
 * 40`): that file, with the lines the last filter shows. Anything else in the pipeline gives no one view.
 */
async function pipelineView(cmds: readonly SimpleCommand[]): Promise<ShellRead | undefined> {
  if (cmds.length < 2 || cmds.some((c, i) => c.substituted || c.pipedOut !== i < cmds.length - 1)) return undefined;
  const first = await program({ ...cmds[0]!, pipedOut: false });
  if (
    !first.shows ||
    first.reads.length !== 1 ||
    cmds[0]!.redirects.some((r) => /^\d*(>|>>|&>|&>>|>\|)$/.test(r.op) && !isSink(r.target))
  )
    return undefined;
  const read = first.reads[0]!;
  if (read.selector.kind !== 'lines' && read.selector.kind !== 'whole') return undefined;
  let from: number = read.selector.kind === 'lines' ? (read.selector.from ?? 1) : 1;
  let to: number | undefined = read.selector.kind === 'lines' ? read.selector.to : undefined;
  for (const cmd of cmds.slice(1)) {
    const f = lineFilter(cmd);
    if (f === undefined) return undefined;
    if (f === 'identity') continue;
    const start: number = from + f.from - 1;
    const end: number | undefined = f.to === undefined ? to : Math.min(to ?? Infinity, from + f.to - 1);
    from = start;
    to = end;
    if (to !== undefined && to < from) return undefined;
  }
  return {
    path: read.path,
    selector:
      from === 1 && to === undefined ? { kind: 'whole' } : { kind: 'lines', from, ...(to !== undefined ? { to } : {}) },
  };
}

export async function readShell(command: string): Promise<ShellReading> {
  const parsed = await parseShell(command);
  if (!parsed.ok)
    return {
      kind: 'exec',
      sideEffect: 'non-idempotent',
      search: false,
      transient: false,
      reads: [],
      writes: [],
      parseError: parsed.error,
    };
  const { commands, unmodelled } = parsed.script;
  const findings = await Promise.all(commands.map(simple));
  const all = combine(findings);
  const cls = unmodelled.length ? worst(all.cls, 'non-idempotent') : commands.length === 0 ? 'pure' : all.cls;
  // The reading names one file only when the command is that one file shown: every other command is a `cd`.
  const indices = commands
    .map((_, i) => i)
    .filter((i) => !['cd', 'pushd'].includes(commands[i]!.words[0]?.value ?? ''));
  const substantive = indices.map((i) => findings[i]!);
  const one =
    substantive.length === 1 && substantive[0]!.shows && substantive[0]!.reads.length === 1
      ? substantive[0]!.reads[0]!
      : await pipelineView(indices.map((i) => commands[i]!));
  const read = RANK[cls] <= RANK['read-mutable'];
  return {
    // A whole read carries no selector: the schema's absent selector is the whole, untruncated source.
    kind: read ? 'read' : 'exec',
    sideEffect: cls,
    ...(read && one ? { path: one.path, ...(one.selector.kind === 'whole' ? {} : { selector: one.selector }) } : {}),
    search: all.search,
    transient: all.transient,
    reads: all.reads,
    writes: [...new Set(all.writes)],
    ...(unmodelled.length ? { unmodelled } : {}),
  };
}

/** What a shell call's result means: its status, whether it is a negative result, whether the command still runs. */
export interface ShellOutcome {
  readonly status: Status;
  readonly negativeResult: boolean;
  readonly running: boolean;
}

/** The recorders' words for a command that was still running when the output was taken. */
const RUNNING =
  /\[(?:The )?command (?:is )?still running|command has no new output after \d+ seconds|\bis still running in (?:the )?background|\[Command still running/i;
/** A diagnostic line the tool itself printed, preferred over any message an importer would have to write. */
const DIAGNOSTIC = [
  /^(?:[\w.]+\.)?\w*(?:Error|Exception|Exit|Interrupt)(?::.*)?$/m,
  /^.*: command not found$/m,
  /^.*(?:No such file or directory|Permission denied)$/m,
  /^(?:error|fatal|ERROR|FATAL|Error)(?:\[[^\]]*\])?:.*$/m,
  // A test runner's summary line (pytest's `==== 2 failed, 5 passed in 0.3s ====`).
  /^=+ .*\b(?:failed|errors?)\b.* =+$/m,
];

function diagnostic(output: string): string | undefined {
  const trace = output.lastIndexOf('Traceback (most recent call last):');
  const tail = trace >= 0 ? output.slice(trace) : output;
  for (const re of DIAGNOSTIC) {
    const all = [...tail.matchAll(new RegExp(re.source, 'gm'))];
    const last = all.pop()?.[0]?.trim();
    if (last) return last.slice(0, 200);
  }
  return undefined;
}

/**
 * A shell result's outcome from its exit code and output: a search that exits 1 having printed nothing found
 * nothing (a negative result, not a failure); a command still running (exit -1 or the recorder's marker) has not
 * failed; any other non-zero exit is an error whose message is the tool's own diagnostic when the output has one,
 * and otherwise one written here and marked `synthesized`. The exit code is kept in the error's fields.
 */
export function shellOutcome(reading: ShellReading, exitCode: number | undefined, output: string): ShellOutcome {
  if (exitCode === -1 || RUNNING.test(output)) return { status: { state: 'ok' }, negativeResult: false, running: true };
  // find exits 0 when it matched nothing; grep and rg exit 1.
  if (exitCode === undefined || exitCode === 0)
    return { status: { state: 'ok' }, negativeResult: reading.search && output.trim() === '', running: false };
  if (reading.search && exitCode === 1 && /^\s*(0\s*)?$/.test(output))
    return { status: { state: 'ok' }, negativeResult: true, running: false };
  const found = diagnostic(output);
  const fields = { exitCode: String(exitCode) };
  return {
    status: found
      ? { state: 'error', errorType: 'exit-code', message: found, fields }
      : { state: 'error', errorType: 'exit-code', message: `exit code ${exitCode}`, fields, synthesized: true },
    negativeResult: false,
    running: false,
  };
}

/**
 * A file as an importer records a read of it: by its normalised path, at a version and mutability no recorder
 * stores (UNKNOWN), in the view the read took when it took less than the whole file.
 */
export function readSource(path: string, selector?: ReadSelector, cwd?: string): Source {
  return {
    identity: normalisePath(path, cwd),
    version: 'UNKNOWN',
    mutable: 'UNKNOWN',
    ...(selector ? { selector } : {}),
  };
}

/** What a command that reads one file shows of it: that file at an unknown version, in the view the command took. */
export function shellReadSource(shell: ShellReading | undefined, cwd?: string): Source | undefined {
  return shell?.kind === 'read' && shell.path ? readSource(shell.path, shell.selector, cwd) : undefined;
}

/** A path as one identity: `./a/b` and `a/b` are the same file; an absolute one is resolved against nothing. */
export function normalisePath(path: string, cwd?: string): string {
  const p = path.replace(/^\.\//, '');
  if (p.startsWith('/') || !cwd) return p;
  return `${cwd.replace(/\/$/, '')}/${p}`;
}
