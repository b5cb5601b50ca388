// `prunelab experiment`: runs conditions over fixtures and writes decision logs, measures and the manifest.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ARTIFACT_VERSION, type Manifest, type Summary } from '../artifacts/schema.js';
import { TOKENIZER, tokenCounter } from '../accounting/tokens.js';
import { failure, usage } from '../errors.js';
import { sha256 } from '../fixture/canonical.js';
import { deepFreeze } from '../fixture/freeze.js';
import { loadFixtures, type LoadedFixture } from '../fixture/load.js';
import { PLACEHOLDER_CHOICES, type PlaceholderMode } from '../engine/placeholder.js';
import { runStudy } from '../engine/run.js';
import { readManifest, writeRun, type ManifestInputs } from '../engine/write.js';
import { allConditions, conditionNames, getCondition } from '../policy/registry.js';
import type { Condition } from '../policy/types.js';
import { parseTiming, timingLabel, type Timing } from '../timing/timing.js';
import { choiceFlag, integerFlag, parseFlags } from './args.js';
import { loadPolicyModule } from './policy-module.js';
import type { CliIO } from './io.js';
import { relativePath } from '../fixture/canonical.js';
import { renderConditionList, renderSummaryTable } from './render.js';

export const DEFAULTS = { fixtures: 'fixtures/canonical', out: 'results', seed: 20261202, timing: 'immediate', placeholders: 'marker' } as const;

const FLAGS = {
  condition: { type: 'string', multiple: true },
  policy: { type: 'string', multiple: true },
  fixtures: { type: 'string' },
  out: { type: 'string' },
  timing: { type: 'string' },
  placeholders: { type: 'string' },
  seed: { type: 'string' },
  json: { type: 'boolean' },
  list: { type: 'boolean' },
  check: { type: 'boolean' },
  help: { type: 'boolean' },
} as const;

export const EXPERIMENT_HELP = `npm run experiment -- [options]

Runs pruning conditions over frozen fixtures and writes, per condition, decisions.jsonl, points.jsonl and
summary.json, plus manifest.json for the run.

  --condition NAME      run only this condition (repeat, or give a comma-separated list); default: all
  --policy FILE         also run your own Condition, the default export of FILE (.ts or .js; repeatable)
  --fixtures PATH       a fixture .json file or a folder of them (default ${DEFAULTS.fixtures})
  --out DIR             where to write (default ${DEFAULTS.out}/)
  --timing T            immediate (default), pressure:<share>, task-boundary
  --placeholders P      marker (default) or none
  --seed N              recorded in the manifest (default ${DEFAULTS.seed})
  --json                print the summaries as JSON instead of a table
  --list                list every condition and exit
  --check               regenerate into a temporary folder and compare with --out (default ${DEFAULTS.out}/)
  --help                this text
`;

const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

interface Plan {
  readonly conditions: readonly Condition[];
  readonly fixturesPath: string;
  readonly outDir: string;
  readonly timing: Timing;
  readonly placeholders: PlaceholderMode;
  readonly seed: number;
  readonly restricted: boolean;
}

export async function experiment(argv: readonly string[], io: CliIO): Promise<number> {
  const flags = parseFlags(argv, FLAGS);
  if (flags.help) {
    io.stdout(EXPERIMENT_HELP);
    return 0;
  }
  if (flags.list) {
    io.stdout(flags.json ? `${JSON.stringify(allConditions().map(info), null, 2)}\n` : renderConditionList(allConditions()));
    return 0;
  }
  if (flags.policy && flags.out === undefined) throw usage('PL_USAGE_POLICY_NEEDS_OUT');
  const own: Condition[] = [];
  for (const file of flags.policy ?? []) {
    own.push(await loadPolicyModule(file, io.cwd, new Set([...conditionNames(), ...own.map((c) => c.name)])));
  }
  const plan: Plan = {
    conditions: [...(flags.condition || own.length === 0 ? selectConditions(flags.condition, own) : []), ...own],
    fixturesPath: resolve(io.cwd, flags.fixtures ?? DEFAULTS.fixtures),
    outDir: resolve(io.cwd, flags.out ?? DEFAULTS.out),
    timing: parseTiming(flags.timing ?? DEFAULTS.timing),
    placeholders: choiceFlag('--placeholders', flags.placeholders, PLACEHOLDER_CHOICES, DEFAULTS.placeholders),
    seed: integerFlag('--seed', flags.seed, DEFAULTS.seed),
    restricted: flags.condition !== undefined,
  };
  if (existsSync(plan.outDir) && !statSync(plan.outDir).isDirectory()) throw usage('PL_USAGE_OUT_NOT_DIR', relativePath(plan.outDir, io.cwd));
  if (flags.check) return check(plan, io);
  const summaries = execute(plan, io.cwd, plan.outDir);
  io.stdout(flags.json ? `${JSON.stringify(summaries, null, 2)}\n` : renderSummaryTable(summaries, plan.outDir, io.cwd));
  return 0;
}

function info(c: Condition) {
  const { decide: _decide, ...rest } = c;
  return rest;
}

/** The named conditions (built-in or from --policy) in the order given; all built-ins when none is named. */
function selectConditions(names: readonly string[] | undefined, own: readonly Condition[]): Condition[] {
  if (!names) return allConditions();
  const wanted = names.flatMap((n) => n.split(',')).map((n) => n.trim()).filter(Boolean);
  if (wanted.length === 0) throw usage('PL_USAGE_NO_CONDITIONS');
  const picked: Condition[] = [];
  for (const name of wanted) {
    const c = getCondition(name) ?? own.find((o) => o.name === name);
    if (!c) throw usage('PL_USAGE_UNKNOWN_CONDITION', name, [...conditionNames(), ...own.map((o) => o.name)]);
    if (!picked.includes(c) && !own.includes(c)) picked.push(c);
  }
  return picked;
}

/** Loads and validates everything first, runs, checks the oracles did not move, then writes atomically. */
function execute(plan: Plan, root: string, outDir: string): Summary[] {
  const fixtures = loadFixtures(plan.fixturesPath, root);
  const startedAt = new Date().toISOString();
  deepFreeze(fixtures);
  const runs = runStudy({ conditions: plan.conditions, fixtures, timing: plan.timing, placeholders: plan.placeholders, tokens: tokenCounter() });
  for (const f of fixtures) {
    const now = sha256(readFileSync(resolve(root, f.oracleFile)));
    if (now !== f.oracleSha256) throw failure('PL_ORACLE_CHANGED', f.oracleFile, f.oracleSha256, now);
  }
  writeRun(outDir, runs, manifestInputs(plan, fixtures, startedAt));
  return runs.map((r) => r.summary);
}

function manifestInputs(plan: Plan, fixtures: readonly LoadedFixture[], startedAt: string): ManifestInputs {
  const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
  return {
    artifactVersion: ARTIFACT_VERSION,
    package: { name: pkg.name, version: pkg.version },
    tokenizer: { ...TOKENIZER },
    seed: plan.seed,
    timing: timingLabel(plan.timing),
    placeholders: plan.placeholders,
    study: { exploratory: true, preregistration: null, fixtureManifest: null },
    models: [{ role: 'predictor', provider: 'embedded', model: null }, { role: 'reader', provider: 'embedded', model: null }],
    fixtures: fixtures.map((f) => ({
      file: f.file, id: f.fixture.id, families: [...f.fixture.families], sha256: f.sha256, oracleFile: f.oracleFile, oracleSha256: f.oracleSha256,
    })),
    run: { startedAt, ...gitState(), node: process.version },
  };
}

function gitState(): { gitCommit: string; gitDirty: boolean | null } {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: PACKAGE_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    return { gitCommit: git('rev-parse', 'HEAD'), gitDirty: git('status', '--porcelain', '--untracked-files=no').length > 0 };
  } catch {
    return { gitCommit: 'UNKNOWN', gitDirty: null };
  }
}

/** Regenerates into a temporary folder and compares byte for byte, ignoring only the manifest's `run` block. */
function check(plan: Plan, io: CliIO): number {
  const temp = mkdtempSync(join(tmpdir(), 'prunelab-check-'));
  try {
    execute(plan, io.cwd, temp);
    const fresh = readManifest(temp);
    if (!fresh) throw new Error('internal: a fresh run wrote no readable manifest');
    const committed = readManifest(plan.outDir);
    const differs: string[] = [];
    if (!committed) differs.push('manifest.json (missing or invalid)');
    else {
      const inputs = (m: Manifest) => JSON.stringify({ ...m, run: null, conditions: null, outputs: null });
      if (inputs(fresh) !== inputs(committed)) differs.push('manifest.json (inputs)');
      for (const c of fresh.conditions) {
        if (!committed.conditions.some((d) => JSON.stringify(d) === JSON.stringify(c))) differs.push(`manifest.json (condition ${c.name})`);
      }
      if (!plan.restricted) {
        for (const c of committed.conditions) if (!fresh.conditions.some((d) => d.name === c.name)) differs.push(`${c.name}/ (not produced by this code)`);
      }
    }
    for (const o of fresh.outputs) {
      let bytes: Buffer | undefined;
      try {
        bytes = readFileSync(join(plan.outDir, o.file));
      } catch {
        bytes = undefined;
      }
      if (!bytes || sha256(bytes) !== o.sha256) differs.push(o.file);
    }
    if (differs.length > 0) throw failure('PL_CHECK_DIFFERS', differs);
    io.stdout(`${relativePath(plan.outDir, io.cwd)} matches a fresh regeneration (${fresh.outputs.length} files, ${fresh.conditions.length} conditions, ${fresh.fixtures.length} fixtures)\n`);
    return 0;
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}
