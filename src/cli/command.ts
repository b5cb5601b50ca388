// A command as data: its name, what it does and its flags, written once in citty's definition shape
// (`defineCommand({ meta, args, run })`, each flag a citty argument definition). Everything a user reads about a
// command is derived from this one definition: the strict parser's options, the usage errors (unknown flag, bad
// choice, missing flag), the --help text (./help.ts) and the docs' command tables (`npm run generate`).
import type { BooleanArgDef, EnumArgDef, PositionalArgDef, StringArgDef } from 'citty';
import { usage } from '../errors.js';
import type { MessageCode, messages } from '../messages.js';
import { choiceFlag, parseStrict } from './args.js';
import type { CliIO } from './io.js';

/** A message code whose message takes no arguments: what a required flag's absence says, when not the generic one. */
type NoArgCode = { [C in MessageCode]: Parameters<(typeof messages)[C]> extends [] ? C : never }[MessageCode];

interface Described {
  /** One sentence or more, unwrapped: help wraps it, the docs print it as it is. */
  readonly description: string;
}

/** A switch: present or not (citty's boolean argument, without aliases or negation). */
export type BooleanFlag = Described & Pick<BooleanArgDef, 'type'> & { readonly type: 'boolean' };

/** A value flag; its text is converted and checked by the command (numbers, paths, timing). */
export type StringFlag = Described &
  Pick<StringArgDef, 'type' | 'default' | 'required'> & {
    readonly type: 'string';
    /** The placeholder help shows for the value (DIR, N, FILE). */
    readonly valueHint: string;
    /** May be given more than once; the command receives every value in order. */
    readonly multiple?: true;
    /** The error a missing required flag raises, when not the generic PL_USAGE_MISSING_VALUE. */
    readonly missing?: NoArgCode;
  };

/** A value from a fixed list; any other value is refused with the list. */
export type EnumFlag = Described &
  Pick<EnumArgDef, 'type' | 'default'> & {
    readonly type: 'enum';
    readonly valueHint: string;
    readonly options: readonly string[];
  };

/** The files a command works on: every argument that is not a flag. */
export type PositionalFlag = Described &
  Pick<PositionalArgDef, 'type' | 'required'> & {
    readonly type: 'positional';
    readonly valueHint: string;
    readonly missing?: NoArgCode;
  };

export type Flag = BooleanFlag | StringFlag | EnumFlag | PositionalFlag;
export type Flags = Readonly<Record<string, Flag>>;

type ValueOf<F extends Flag> = F extends { type: 'boolean' }
  ? boolean
  : F extends { type: 'enum'; options: readonly (infer O)[] }
    ? O
    : F extends { multiple: true }
      ? string[]
      : string;

/**
 * What the parser gives a command: each flag as typed, undefined when not given (the command applies the default,
 * so it can still tell an explicit --out from none); a required flag is always there.
 */
export type Values<A extends Flags> = {
  -readonly [K in keyof A as A[K] extends { type: 'positional' } | { required: true } ? never : K]?: ValueOf<A[K]>;
} & {
  -readonly [K in keyof A as A[K] extends { type: 'string'; required: true } ? K : never]-?: ValueOf<A[K]>;
};

export interface CommandMeta {
  /** The word after `prunelab` (and in `tsx src/cli/bin.ts NAME`). */
  readonly name: string;
  /** The npm script that enters it (package.json), shown in usage lines and the docs. */
  readonly script: string;
  /** One line: what the command does (the top-level help and the table of docs/commands.md). */
  readonly description: string;
  /** Usage lines after `npm run SCRIPT --`, when the one generated from the flags says too little. */
  readonly usage?: readonly string[];
  /** Paragraphs help prints between the usage lines and the flags. */
  readonly about?: string;
}

export interface CommandContext<A extends Flags> {
  readonly args: Values<A>;
  readonly positionals: readonly string[];
  readonly io: CliIO;
  /** Every command, for the one that documents them all (`generate`). */
  readonly commands: readonly Command[];
}

export interface Command<A extends Flags = Flags> {
  readonly meta: CommandMeta;
  readonly args: A;
  // Method syntax: a command with particular flags is still a Command of the list the dispatcher holds.
  run(context: CommandContext<A>): Promise<number>;
}

/** citty's `defineCommand`, typed for our flags: it only infers `args`' literal types for `run`. */
export function defineCommand<const A extends Flags>(command: Command<A>): Command<A> {
  return command;
}

/**
 * A command's definition without its run: all that help, usage errors and the docs read. Each command's definition
 * module imports only this, so listing the commands (./commands.ts) loads none of what they do; the run is its own
 * module (./run/), imported when the command runs (lazyCommand).
 */
export type CommandDefinition<A extends Flags = Flags> = Omit<Command<A>, 'run'>;

/** defineCommand for a definition whose run lives in its own module. */
export function describeCommand<const A extends Flags>(definition: CommandDefinition<A>): CommandDefinition<A> {
  return definition;
}

/** A command's run module: what lazyCommand imports when the command runs. */
export interface RunModule<A extends Flags> {
  run(context: CommandContext<A>): Promise<number>;
}

/**
 * The command whose run is imported on first use: importing every command's code cost each process that loads the
 * CLI about a second of CPU more than the one command it runs (docs/speed.md, "Test suite, December 5 (second)").
 */
export function lazyCommand<A extends Flags>(
  definition: CommandDefinition<A>,
  load: () => Promise<RunModule<A>>,
): Command<A> {
  return { ...definition, run: async (context) => (await load()).run(context) };
}

/** The help flag every command takes; not part of any definition, so no definition can forget or redefine it. */
export const HELP_FLAG: BooleanFlag = { type: 'boolean', description: 'this text' };

export interface ParsedCommand<A extends Flags> {
  readonly args: Values<A>;
  readonly positionals: string[];
  readonly help: boolean;
}

/**
 * Strict parsing derived from the definition: an unknown flag, a value given to a switch or a missing value is a
 * usage error naming the flag (and the valid flags). citty's own parser accepts unknown flags, so node:util's is used.
 */
export function parseCommand<A extends Flags>(command: Command<A>, argv: readonly string[]): ParsedCommand<A> {
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> = { help: { type: 'boolean' } };
  let positional = false;
  for (const [name, flag] of Object.entries(command.args)) {
    if (flag.type === 'positional') positional = true;
    else
      options[name] = {
        type: flag.type === 'boolean' ? 'boolean' : 'string',
        ...(flag.type === 'string' && flag.multiple ? { multiple: true } : {}),
      };
  }
  const { values, positionals } = parseStrict(argv, options, positional);
  const { help, ...args } = values as Record<string, unknown>;
  return { args: args as Values<A>, positionals, help: help === true };
}

/**
 * What the definition says of values, checked once help is ruled out: a choice must be one of its options, and a
 * required flag or file must be there (files first, then flags in the definition's order).
 */
export function checkValues<A extends Flags>(command: Command<A>, parsed: ParsedCommand<A>): void {
  const given = parsed.args as Record<string, unknown>;
  for (const [name, flag] of Object.entries(command.args)) {
    if (flag.type === 'enum' && given[name] !== undefined)
      choiceFlag(`--${name}`, given[name] as string, flag.options, flag.options[0]!);
  }
  for (const flag of Object.values(command.args)) {
    if (flag.type === 'positional' && flag.required && parsed.positionals.length === 0) {
      throw flag.missing ? usage(flag.missing) : usage('PL_USAGE_MISSING_VALUE', flag.valueHint);
    }
  }
  for (const [name, flag] of Object.entries(command.args)) {
    if (flag.type === 'string' && flag.required && given[name] === undefined) {
      throw flag.missing ? usage(flag.missing) : usage('PL_USAGE_MISSING_VALUE', `--${name}`);
    }
  }
}
