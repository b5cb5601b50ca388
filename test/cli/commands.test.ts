// Every command is defined once; its help, its usage errors and the docs' tables must follow from that definition.
// One table over every command: a new command or flag is covered without a new test.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkValues, type Command, defineCommand, type Flag, parseCommand } from '../../src/cli/command.js';
import { COMMANDS } from '../../src/cli/commands.js';
import { COMMANDS_DOC } from '../../src/cli/generate.js';
import { renderCommandsDoc, renderCommandsMarkdown, renderHelp } from '../../src/cli/help.js';
import { PrunelabError } from '../../src/errors.js';
import { cli } from '../support/cli.js';

const flagsOf = (c: Command) => Object.entries(c.args).filter(([, f]) => f.type !== 'positional');
const validFlags = (c: Command) => [...flagsOf(c).map(([n]) => `--${n}`), '--help'].sort();

/** The command line that satisfies every required flag and file of `c` but `except`, so that one is what is missing. */
function required(c: Command, except?: string): string[] {
  const out: string[] = [];
  for (const [name, f] of Object.entries(c.args)) {
    if (name === except) continue;
    if (f.type === 'string' && f.required) out.push(`--${name}`, '7');
    if (f.type === 'positional' && f.required) out.push('some-file');
  }
  return out;
}

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    if (err instanceof PrunelabError) return err.code;
    throw err;
  }
  return undefined;
}

describe.each(COMMANDS.map((c) => [c.meta.name, c] as const))('command %s', (name, command) => {
  it('--help names every flag and file of its definition, and the npm script that enters it', async () => {
    const r = await cli([name, '--help']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    for (const [flag, f] of Object.entries(command.args)) {
      expect(r.stdout).toContain(f.type === 'positional' ? `${f.valueHint}...` : `--${flag}`);
      expect(r.stdout).toContain(f.description.split(' ').slice(0, 3).join(' '));
      if (f.type === 'enum') for (const o of f.options) expect(r.stdout).toContain(o);
      if ((f.type === 'string' || f.type === 'enum') && f.default !== undefined)
        expect(r.stdout).toContain(`default ${f.default}`);
    }
    expect(r.stdout).toContain('--help');
    expect(r.stdout.startsWith(`npm run ${command.meta.script}`)).toBe(true);
    expect(r.stdout).toBe(renderHelp(command));
    for (const line of r.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(120);
  });

  it('an unknown flag exits 2 with PL_USAGE_UNKNOWN_FLAG, naming it and every valid flag (even beside --help)', async () => {
    for (const argv of [
      [name, '--no-such-flag'],
      [name, '--help', '--no-such-flag'],
    ]) {
      const r = await cli(argv);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('[PL_USAGE_UNKNOWN_FLAG]');
      expect(r.stderr).toContain('--no-such-flag');
      expect(r.stderr).toContain(validFlags(command).join(', '));
    }
  });

  const enums = Object.entries(command.args).filter(([, f]) => f.type === 'enum');
  it.runIf(enums.length > 0)(
    'a value outside a choice exits 2 with PL_USAGE_BAD_VALUE listing the choices',
    async () => {
      for (const [flag, f] of enums) {
        const r = await cli([name, `--${flag}`, 'not-a-choice', ...required(command)]);
        expect(r.code).toBe(2);
        expect(r.stderr).toContain('[PL_USAGE_BAD_VALUE]');
        expect(r.stderr).toContain(`--${flag}`);
        expect(r.stderr).toContain(`one of ${(f as Extract<Flag, { type: 'enum' }>).options.join(', ')}`);
      }
    },
  );

  it('every choice of every choice flag is accepted by the checks', () => {
    for (const [flag, f] of enums) {
      for (const o of (f as Extract<Flag, { type: 'enum' }>).options) {
        const parsed = parseCommand(command, [`--${flag}`, o, ...required(command)]);
        expect(codeOf(() => checkValues(command, parsed))).toBeUndefined();
        expect((parsed.args as Record<string, unknown>)[flag]).toBe(o);
      }
    }
  });

  const mandatory = Object.entries(command.args).filter(
    ([, f]) => (f.type === 'string' || f.type === 'positional') && f.required,
  );
  it.runIf(mandatory.length > 0)(
    'a missing required flag or file exits 2 with its code; given, it passes',
    async () => {
      for (const [flag, f] of mandatory) {
        const r = await cli([name, ...required(command, flag)]);
        expect(r.code).toBe(2);
        const missing = (f as { missing?: string }).missing;
        expect(r.stderr).toContain(`[${missing ?? 'PL_USAGE_MISSING_VALUE'}]`);
      }
      expect(codeOf(() => checkValues(command, parseCommand(command, required(command))))).toBeUndefined();
    },
  );

  it('is entered by its npm script', () => {
    const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts[command.meta.script]).toBe(`node scripts/launch.mjs src/cli/bin.ts ${name}`);
  });
});

describe('the command list', () => {
  it('names each command once, and every npm script that enters bin.ts names a defined command', () => {
    const names = COMMANDS.map((c) => c.meta.name);
    expect(new Set(names).size).toBe(names.length);
    const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
    for (const line of Object.values(scripts)) {
      const m = /^node scripts\/launch\.mjs src\/cli\/bin\.ts (\S+)/.exec(line);
      if (m) expect(names).toContain(m[1]);
      // Every script of the command line runs the compiled copy, none the sources under tsx (scripts/launch.mjs).
      if (line.includes('src/cli/bin.ts')) expect(line).toMatch(/^node scripts\/launch\.mjs src\/cli\/bin\.ts /);
    }
  });

  it("top-level --help lists every command with what it does; --version prints package.json's version", async () => {
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    for (const c of COMMANDS) {
      expect(help.stdout).toContain(`  ${c.meta.name} `);
      expect(help.stdout).toContain(c.meta.description.split(' ').slice(0, 4).join(' '));
    }
    const version = await cli(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout).toBe(
      `${(JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version}\n`,
    );
  });

  it('an unknown command still exits 2 naming every command', async () => {
    const r = await cli(['no-such-command']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('[PL_USAGE_UNKNOWN_COMMAND]');
    for (const c of COMMANDS) expect(r.stderr).toContain(c.meta.name);
  });
});

describe("the docs' command tables", () => {
  it('docs/commands.md, its table of commands included, is the one the definitions generate (run `npm run generate`)', () => {
    const doc = readFileSync(COMMANDS_DOC, 'utf8');
    expect(doc).toBe(renderCommandsDoc(COMMANDS));
    expect(doc).toContain(renderCommandsMarkdown(COMMANDS, ''));
    for (const c of COMMANDS) expect(doc).toContain(`| [\`npm run ${c.meta.script}\`](#${c.meta.name}) |`);
  });

  it('docs/commands.md has a row for every flag of every command, with its choices and default', () => {
    const doc = renderCommandsDoc(COMMANDS);
    for (const c of COMMANDS) {
      const section = doc.slice(doc.indexOf(`## ${c.meta.name}\n`));
      for (const [flag, f] of flagsOf(c)) {
        const row = section.split('\n').find((l) => l.startsWith(`| \`--${flag}`));
        expect(row, `${c.meta.name} --${flag}`).toBeDefined();
        if (f.type === 'enum') for (const o of f.options) expect(row).toContain(`\`${o}\``);
        if ((f.type === 'string' || f.type === 'enum') && f.default !== undefined)
          expect(row).toContain(`\`${f.default}\``);
      }
    }
  });
});

describe('a definition, whatever it holds', () => {
  const sample = defineCommand({
    meta: { name: 'sample', script: 'sample', description: 'a command for the properties' },
    args: {
      mode: { type: 'enum', valueHint: 'M', options: ['a', 'b', 'c'], default: 'a', description: 'the mode' },
      name: { type: 'string', valueHint: 'N', multiple: true, description: 'names' },
      flag: { type: 'boolean', description: 'a switch' },
    },
    run: async () => 0,
  });
  const word = fc.stringMatching(/^[a-z][a-z-]{0,12}$/);

  it('refuses any flag it does not define, naming the valid ones', () => {
    fc.assert(
      fc.property(
        word.filter((w) => !['mode', 'name', 'flag', 'help'].includes(w)),
        (w) => {
          expect(codeOf(() => parseCommand(sample, [`--${w}`]))).toBe('PL_USAGE_UNKNOWN_FLAG');
        },
      ),
    );
  });

  it('refuses any value outside a choice and accepts every value inside it', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((v) => !v.startsWith('-')),
        (v) => {
          const code = codeOf(() => checkValues(sample, parseCommand(sample, ['--mode', v])));
          expect(code).toBe(['a', 'b', 'c'].includes(v) ? undefined : 'PL_USAGE_BAD_VALUE');
        },
      ),
    );
  });

  it('gives a repeatable flag every value in order, and a switch no value', () => {
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 5 }), (names) => {
        const parsed = parseCommand(
          sample,
          names.flatMap((n) => ['--name', n]),
        );
        expect(parsed.args.name).toEqual(names);
      }),
    );
    expect(codeOf(() => parseCommand(sample, ['--flag=yes']))).toBe('PL_USAGE_NO_VALUE');
    expect(codeOf(() => parseCommand(sample, ['--mode']))).toBe('PL_USAGE_MISSING_VALUE');
    expect(codeOf(() => parseCommand(sample, ['stray']))).toBe('PL_USAGE_POSITIONAL');
  });
});
