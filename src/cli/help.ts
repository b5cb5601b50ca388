// What a user reads about the commands, rendered from their definitions: each command's --help, the top-level help,
// the command table and the rest of docs/commands.md. Plain text, no colour: the same bytes in a terminal, a pipe and
// a test. (citty's renderUsage colours by the process's environment, read when it is imported.)
import { type Command, type Flag, HELP_FLAG } from './command.js';

const WIDTH = 118;
/** The widest flag label that keeps its description on the same line. */
const LABEL_MAX = 22;

function label(name: string, flag: Flag): string {
  if (flag.type === 'positional') return `${flag.valueHint}...`;
  return flag.type === 'boolean' ? `--${name}` : `--${name} ${flag.valueHint}`;
}

/** What the definition adds to a description: the choices, the default, whether required or repeatable. */
function facts(flag: Flag): string[] {
  const out: string[] = [];
  if (flag.type === 'enum') out.push(`one of ${flag.options.join(', ')}`);
  if ((flag.type === 'string' || flag.type === 'enum') && flag.default !== undefined)
    out.push(`default ${flag.default}`);
  if ((flag.type === 'string' || flag.type === 'positional') && flag.required) out.push('required');
  if (flag.type === 'string' && flag.multiple) out.push('repeatable');
  return out;
}

function sentence(flag: Flag): string {
  const extra = facts(flag);
  return extra.length === 0 ? flag.description : `${flag.description} (${extra.join('; ')})`;
}

/** Words filled into lines of `width`, every line after the first indented by `indent` spaces. */
function wrap(text: string, indent: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line !== '' && indent + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  lines.push(line);
  return lines;
}

/** A text's paragraphs (blank-line separated), each on one line. */
function paragraphs(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
}

/** Every entry of a command's definition, the help flag last. */
function entries(command: Command): [string, Flag][] {
  const all = Object.entries(command.args);
  return [
    ...all.filter(([, f]) => f.type === 'positional'),
    ...all.filter(([, f]) => f.type !== 'positional'),
    ['help', HELP_FLAG],
  ];
}

/** The usage lines: the definition's own, or the required flags, `[options]` and the files. */
export function usageLines(command: Command): string[] {
  if (command.meta.usage) return [...command.meta.usage];
  const flags = Object.entries(command.args);
  const required = flags.filter(([, f]) => f.type === 'string' && f.required).map(([n, f]) => label(n, f));
  const files = flags
    .filter(([, f]) => f.type === 'positional')
    .map(([n, f]) => (f.type === 'positional' && f.required ? label(n, f) : `[${label(n, f)}]`));
  const optional = flags.some(([, f]) => !(f.type === 'string' && f.required) && f.type !== 'positional')
    ? ['[options]']
    : [];
  return [[...required, ...optional, ...files].join(' ')];
}

function invocation(command: Command, line: string): string {
  return `npm run ${command.meta.script}${line === '' ? '' : ` -- ${line}`}`;
}

export function renderHelp(command: Command): string {
  const rows = entries(command).map(([name, flag]) => [label(name, flag), sentence(flag)] as const);
  const column = Math.min(LABEL_MAX, Math.max(...rows.map(([l]) => l.length))) + 2;
  const lines: string[] = [];
  for (const [l, text] of rows) {
    const body = wrap(text, 2 + column, WIDTH);
    if (l.length + 2 > column) lines.push(`  ${l}`, ...body.map((b) => `${' '.repeat(2 + column)}${b}`));
    else lines.push(`  ${l.padEnd(column)}${body[0]}`, ...body.slice(1).map((b) => `${' '.repeat(2 + column)}${b}`));
  }
  const about = paragraphs(command.meta.about ?? command.meta.description)
    .map((p) => `${wrap(p, 0, WIDTH).join('\n')}\n\n`)
    .join('');
  return `${usageLines(command)
    .map((u) => invocation(command, u))
    .join('\n')}\n\n${about}${lines.join('\n')}\n`;
}

/** `prunelab --help`: every command with what it does. */
export function renderProgramHelp(commands: readonly Command[], version: string): string {
  const width = Math.max(...commands.map((c) => c.meta.name.length)) + 2;
  const rows = commands.map(
    (c) =>
      `  ${c.meta.name.padEnd(width)}${wrap(c.meta.description, 2 + width, WIDTH).join(`\n${' '.repeat(2 + width)}`)}`,
  );
  return `prunelab ${version}: when may an agent remove items from its own context

usage: prunelab COMMAND [options]   (installed package; in a clone: npm run SCRIPT -- [options], each command's
                                    script is in its help, or npx tsx src/cli/bin.ts COMMAND [options])
       prunelab COMMAND --help      every option of one command
       prunelab --version

commands:
${rows.join('\n')}
`;
}

/** A Markdown table cell: pipes escaped, and angle brackets, so that `<share>` is not read as a tag. */
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The command table: one row per command, its script, what it does and its options; each row links to the
 * command's section of `doc` (docs/commands.md from the README, '' from within docs/commands.md itself).
 */
export function renderCommandsMarkdown(commands: readonly Command[], doc = 'docs/commands.md'): string {
  const rows = commands.map((c) => {
    const options = entries(c)
      .map(([n, f]) => `\`${label(n, f)}\``)
      .join(', ');
    return `| [\`npm run ${c.meta.script}\`](${doc}#${c.meta.name}) | ${cell(c.meta.description)} | ${cell(options)} |`;
  });
  return ['| command | what it does | options |', '|---|---|---|', ...rows].join('\n') + '\n';
}

/** docs/commands.md: every command with its usage and every flag, with its choices, default and whether required. */
export function renderCommandsDoc(commands: readonly Command[]): string {
  const out = [
    '# Commands',
    '',
    '<!-- generated by npm run generate from the definitions in src/cli/; do not edit by hand -->',
    '',
    'Every command is `prunelab COMMAND` from the installed package (`npx prunelab COMMAND`), and in a clone',
    '`node scripts/launch.mjs src/cli/bin.ts COMMAND` (the sources compiled to JavaScript once and cached; see',
    '[running.md](running.md#the-launcher)), entered through its npm script (`npm run SCRIPT -- [options]`);',
    '`npx tsx src/cli/bin.ts COMMAND` runs the sources themselves. `prunelab --help`',
    'lists them and `--version` prints the version; `COMMAND --help` prints one. An unknown flag, a value outside a',
    "flag's choices or a missing required flag stops with exit 2 and a message naming the flag and what it accepts.",
    '',
    'Every long command reports progress on stderr, never on stdout: experiment, report, generate, fixtures-generate',
    'and ecology count what is done (fixtures, analysis steps, files) with elapsed time and ETA, and model calls and',
    'spend when a model is called; a live bar when stderr is a terminal, a plain line every tenth of the work or every',
    'five seconds when it is not (a log, CI). `npm run base-rate`, a script of several commands, prints',
    "`base-rate: step i/N (what), elapsed` as each starts, with that command's own progress beneath. `--json` adds",
    'nothing to stderr.',
    '',
    renderCommandsMarkdown(commands, ''),
  ];
  for (const c of commands) {
    out.push(`## ${c.meta.name}`, '', '```', ...usageLines(c).map((u) => invocation(c, u)), '```', '');
    for (const p of paragraphs(c.meta.about ?? c.meta.description)) out.push(p, '');
    out.push('| option | meaning | choices | default |', '|---|---|---|---|');
    for (const [n, f] of entries(c)) {
      const choices = f.type === 'enum' ? f.options.map((o) => `\`${o}\``).join(', ') : '';
      const fallback =
        (f.type === 'string' || f.type === 'enum') && f.default !== undefined
          ? `\`${f.default}\``
          : (f.type === 'string' || f.type === 'positional') && f.required
            ? 'required'
            : '';
      const notes = f.type === 'string' && f.multiple ? ' (repeatable)' : '';
      out.push(`| \`${label(n, f)}\` | ${cell(f.description)}${notes} | ${choices} | ${fallback} |`);
    }
    out.push('');
  }
  return out.join('\n');
}
