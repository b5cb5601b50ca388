// What `prunelab experiment` does, loaded only when that command runs (its definition is ../experiment.ts).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { ARTIFACT_VERSION, type DecisionLog, type Manifest, type Summary } from '../../artifacts/schema.js';
import { TOKENIZER, tokenCounter } from '../../accounting/tokens.js';
import { failure, usage } from '../../errors.js';
import { sha256 } from '../../fixture/canonical.js';
import { deepFreeze } from '../../fixture/freeze.js';
import { duplicateId, fixtureFiles, type LoadedFixture, type OnSkip } from '../../fixture/load.js';
import { loadFixtures, parseFixtureBytes, readFixtureFile, type FixtureBytes } from '../../load/fixtures.js';
import { input } from '../../errors.js';
import type { PlaceholderMode } from '../../engine/placeholder.js';
import { streamStudy, type RunTotals } from '../../engine/run.js';
import {
  parallelizable,
  startStudyWorkers,
  streamStudyParallel,
  workerSetup,
  workersFor,
  type FixtureFacts,
  type StartedWorkers,
} from '../../engine/parallel.js';
import type { StudyModels } from '../../behaviour/study.js';
import { chargesRecord, parseShard, selectShard, writeShardRecord, type Shard } from '../../engine/shard.js';
import { logsDecisions, readManifest, RunWriter, type ManifestInputs, type RunLayout } from '../../engine/write.js';
import { checkLoaded, departures, type FrozenStudy, loadFrozenStudy, unnamedConditions } from '../../study/check.js';
import { generatedDir } from '../../study/manifest.js';
import { allConditions, conditionNames, getCondition } from '../../policy/registry.js';
import type { Condition } from '../../policy/types.js';
import { parseTiming, timingLabel, type Timing } from '../../timing/timing.js';
import { integerFlag, secondsFlag } from '../args.js';
import type { Values } from '../command.js';
import { PACKAGE_ROOT } from '../../files/package-root.js';
import { packageInfo } from '../package.js';
import { loadPolicyModule, type SandboxedCondition } from '../policy-module.js';
import { loadPrunerModule } from '../pruner-module.js';
import type { OffLimits } from '../../sandbox/sandbox.js';
import { clearDebris, type CliIO } from '../io.js';
import { startProgress } from '../progress.js';
import { limited, selectFixtures, selectionDeparture, type Selection } from '../../load/select.js';
import { relativePath } from '../../fixture/canonical.js';
import { renderConditionList, renderSummaryTable } from '../render.js';
import { estimateCost } from '../../engine/estimate.js';
import { prepareStudy, rolesOf, usesModels, type ModelPlan, type RoleCalls } from '../../engine/model-phase.js';
import { parseModelFlags } from '../models.js';
import { buildView } from '../../fixture/view.js';
import { messages, notices } from '../../messages.js';
import { findDebris, removeDeadTemps } from '../../engine/atomic.js';
import { unpinnedFiles } from '../../artifacts/verify.js';
import { STUDY } from '../study.js';
import type { CommandContext } from '../command.js';
import { DEFAULTS, type FLAGS } from '../experiment.js';

export const run = ({ args, io }: CommandContext<typeof FLAGS>) => experiment(args, io);

interface Plan {
  readonly conditions: readonly Condition[];
  readonly fixturesPath: string;
  readonly outDir: string;
  readonly timing: Timing;
  readonly placeholders: PlaceholderMode;
  readonly decisionLog: DecisionLog;
  readonly seed: number;
  readonly restricted: boolean;
  readonly exploratory: boolean;
  /** Names of the conditions that came from --policy modules. */
  readonly own: readonly string[];
  readonly models: ModelPlan;
  readonly shard: Shard | null;
  /** Worker threads asked for with --workers; undefined: one per core when the corpus is large enough to pay. */
  readonly workers: number | undefined;
  /** A smoke run's subset (--filter, --limit); empty for every fixture. */
  readonly selection: Selection;
  /** --json: print nothing but the result, so no progress either. */
  readonly quiet: boolean;
}

/** Whether a run is the preregistered study, and what it was checked against. */
interface Study {
  readonly exploratory: boolean;
  /** Why a run is exploratory; empty for the preregistered study. */
  readonly why: string;
  readonly frozen: FrozenStudy | null;
  /** In a confirmatory run, the conditions the preregistration does not name: each stamped exploratory alone. */
  readonly exploratoryConditions: readonly string[];
}

type ExperimentFlags = Values<typeof FLAGS>;

async function experiment(flags: ExperimentFlags, io: CliIO): Promise<number> {
  if (flags.list) {
    io.stdout(
      flags.json ? `${JSON.stringify(allConditions().map(info), null, 2)}\n` : renderConditionList(allConditions()),
    );
    return 0;
  }
  if (flags.policy && flags.out === undefined) throw usage('PL_USAGE_POLICY_NEEDS_OUT');
  if (flags.pruner && flags.out === undefined) throw usage('PL_USAGE_PRUNER_NEEDS_OUT');
  if (flags.pruner && flags.format === undefined) throw usage('PL_USAGE_PRUNER_NEEDS_FORMAT');
  if (flags.format !== undefined && !flags.pruner) throw usage('PL_USAGE_FORMAT_NEEDS_PRUNER');
  const policyTimeout = secondsFlag('--policy-timeout', flags['policy-timeout'], DEFAULTS.policyTimeout);
  const loaded: SandboxedCondition[] = [];
  try {
    for (const file of flags.policy ?? []) {
      const taken = new Set([...conditionNames(), ...loaded.map((c) => c.name)]);
      loaded.push(
        await loadPolicyModule(file, io.cwd, taken, {
          offLimits: offLimits(io.cwd, flags.fixtures, flags.out),
          timeoutMs: policyTimeout * 1000,
        }),
      );
    }
    for (const file of flags.pruner ?? []) {
      const taken = new Set([...conditionNames(), ...loaded.map((c) => c.name)]);
      loaded.push(
        await loadPrunerModule(file, flags.format!, io.cwd, taken, {
          offLimits: offLimits(io.cwd, flags.fixtures, flags.out),
          timeoutMs: policyTimeout * 1000,
        }),
      );
    }
    return await runConditions(flags, io, loaded);
  } catch (err) {
    // The engine reports a sandbox's failure as the policy's broken output; the sandbox knows the real cause.
    throw loaded.find((p) => p.sandbox.fault)?.sandbox.fault ?? err;
  } finally {
    for (const p of loaded) p.sandbox.close();
  }
}

/**
 * What a sandboxed policy's folder must not hold: the fixtures named and the project's own (each file's oracle and
 * hidden obligations), the project's results/ and this run's --out. Every oracle is refused wherever it lies.
 */
function offLimits(cwd: string, fixtures: string | undefined, out: string | undefined): OffLimits {
  const named = resolve(cwd, fixtures ?? DEFAULTS.fixtures);
  const fixtureRoots = [
    resolve(cwd, DEFAULTS.fixtures),
    existsSync(named) && !statSync(named).isDirectory() ? dirname(named) : named,
  ];
  return {
    fixtures: [...new Set(fixtureRoots)],
    results: [...new Set([resolve(cwd, DEFAULTS.out), resolve(cwd, out ?? DEFAULTS.out)])],
  };
}

async function runConditions(flags: ExperimentFlags, io: CliIO, own: readonly Condition[]): Promise<number> {
  const plan: Plan = {
    conditions: [...(flags.condition || own.length === 0 ? selectConditions(flags.condition, own) : []), ...own],
    fixturesPath: resolve(io.cwd, flags.fixtures ?? DEFAULTS.fixtures),
    outDir: resolve(io.cwd, flags.out ?? DEFAULTS.out),
    timing: parseTiming(flags.timing ?? DEFAULTS.timing),
    placeholders: flags.placeholders ?? DEFAULTS.placeholders,
    // --check verifies a run as it was logged unless told otherwise: the mode changes which audit files exist, not a measure.
    decisionLog:
      flags['decision-log'] ??
      (flags.check ? readManifest(resolve(io.cwd, flags.out ?? DEFAULTS.out))?.decisionLog : undefined) ??
      DEFAULTS.decisionLog,
    seed: integerFlag('--seed', flags.seed, DEFAULTS.seed),
    restricted: flags.condition !== undefined,
    exploratory: flags.exploratory ?? false,
    own: own.map((c) => c.name),
    models: parseModelFlags(flags, io),
    shard: flags.shard === undefined ? null : parseShard(flags.shard),
    workers: flags.workers === undefined ? undefined : integerFlag('--workers', flags.workers, 1),
    selection: { filters: flags.filter ?? [], limit: limitFlag(flags.limit) },
    quiet: flags.json ?? false,
  };
  if (plan.workers !== undefined && plan.workers < 1)
    throw usage('PL_USAGE_BAD_VALUE', '--workers', flags.workers ?? '', 'a whole number of at least 1');
  if (plan.shard && flags.out === undefined) throw usage('PL_USAGE_SHARD_NEEDS_OUT');
  if (usesModels(plan.models) && flags.out === undefined && !plan.models.estimateCost)
    throw usage('PL_USAGE_MODEL_NEEDS_OUT');
  if (plan.models.estimateCost) {
    const loaded = selectFixtures(loadFixtures(plan.fixturesPath, io.cwd, skipNotice(io)), plan.selection);
    const fixtures = plan.shard ? selectShard(loaded, plan.shard) : loaded;
    deepFreeze(fixtures);
    const tokens = tokenCounter();
    const points = fixtures.flatMap((f) =>
      f.fixture.prunePoints.map((point) => ({ point, view: buildView(f.fixture, point.id, tokens) })),
    );
    // The reader's requests are what a pass of the study asks; the pass writes nothing, so it builds no records.
    const collect = (conditions: readonly Condition[], models: StudyModels) => {
      streamStudy(
        {
          conditions,
          fixtures,
          timing: plan.timing,
          placeholders: plan.placeholders,
          tokens,
          models,
          decisionRecords: () => false,
        },
        { fixture: () => undefined },
      );
    };
    io.stdout(await estimateCost(plan.models, plan.conditions, points, tokens, plan.seed, collect));
    return 0;
  }
  if (existsSync(plan.outDir) && !statSync(plan.outDir).isDirectory())
    throw usage('PL_USAGE_OUT_NOT_DIR', relativePath(plan.outDir, io.cwd));
  // A check of a model-backed run regenerates from the recorded calls: it must not call (or pay) again.
  if (flags.check)
    return check(usesModels(plan.models) ? { ...plan, models: { ...plan.models, cacheMode: 'replay' } } : plan, io);
  const { summaries, study } = await execute(plan, io, plan.outDir, flags.out === undefined);
  const notice = study.exploratory
    ? notices.exploratoryRun(study.why)
    : study.exploratoryConditions.length > 0
      ? notices.exploratoryConditions(study.exploratoryConditions)
      : '';
  io.stdout(
    flags.json
      ? `${JSON.stringify(summaries, null, 2)}\n`
      : notice + renderSummaryTable(summaries, plan.outDir, io.cwd),
  );
  return 0;
}

/** --limit N: a count of at least 1. */
function limitFlag(text: string | undefined): number | null {
  if (text === undefined) return null;
  const n = integerFlag('--limit', text, 0);
  if (n < 1) throw usage('PL_USAGE_BAD_VALUE', '--limit', text, 'a whole number of fixtures, at least 1');
  return n;
}

/** Says on stderr which files in a fixtures folder were passed over as not regular files. */
function skipNotice(io: CliIO): OnSkip {
  return (file, why) => io.stderr(notices.inputSkipped(relativePath(file, io.cwd), why));
}

function info(c: Condition) {
  const { decide: _decide, ...rest } = c;
  return rest;
}

/** The named conditions (built-in or from --policy) in the order given; all built-ins when none is named. */
function selectConditions(names: readonly string[] | undefined, own: readonly Condition[]): Condition[] {
  if (!names) return allConditions();
  const wanted = names
    .flatMap((n) => n.split(','))
    .map((n) => n.trim())
    .filter(Boolean);
  if (wanted.length === 0) throw usage('PL_USAGE_NO_CONDITIONS');
  const picked: Condition[] = [];
  for (const name of wanted) {
    const c = getCondition(name) ?? own.find((o) => o.name === name);
    if (!c) throw usage('PL_USAGE_UNKNOWN_CONDITION', name, [...conditionNames(), ...own.map((o) => o.name)]);
    if (!picked.includes(c) && !own.includes(c)) picked.push(c);
  }
  return picked;
}

/**
 * The default fixtures are the preregistered study: their manifest and every file are checked against the
 * preregistration before anything is parsed or run. Other fixtures, --exploratory, or options that depart from the
 * preregistered design make the run exploratory (the inputs are still checked when they are the frozen ones). A
 * condition the preregistration does not name departs from nothing: it is stamped exploratory alone.
 */
function studyFor(plan: Plan, root: string): Study {
  const whole = studyOfInputs(plan, root);
  // A subset of the fixtures is never the study, whatever else holds; the stamp says so beside any other reason.
  const subset = selectionDeparture(plan.selection);
  if (!subset) return whole;
  return {
    ...whole,
    exploratory: true,
    why: whole.why ? `${whole.why}; ${subset}` : subset,
    exploratoryConditions: [],
  };
}

function studyOfInputs(plan: Plan, root: string): Study {
  const whole = (why: string, frozen: FrozenStudy | null = null): Study => ({
    exploratory: true,
    why,
    frozen,
    exploratoryConditions: [],
  });
  if (plan.exploratory) return whole('requested with --exploratory');
  if (usesModels(plan.models)) return whole('model-backed backends are not the preregistered embedded study');
  if (plan.fixturesPath !== resolve(root, DEFAULTS.fixtures))
    return whole(`--fixtures ${relativePath(plan.fixturesPath, root)} is not the preregistered fixture set`);
  const frozen = loadFrozenStudy(root, STUDY.name);
  // An edit to the preregistration since it was frozen departs from the design as much as another option does.
  const shape = {
    timing: timingLabel(plan.timing),
    placeholders: plan.placeholders,
    seed: plan.seed,
    conditions: plan.conditions,
    own: plan.own,
  };
  const off = [...(frozen.edited ? [frozen.edited] : []), ...departures(frozen.pinned, shape)];
  if (off.length > 0) return whole(off.join('; '), frozen);
  return { exploratory: false, why: '', frozen, exploratoryConditions: unnamedConditions(frozen.pinned, shape) };
}

/** Checks the frozen inputs, loads and validates everything, then streams the run into a staging folder. */
/** `intoDefault`: writing to the default results/, which only the preregistered study may replace. */
async function execute(
  plan: Plan,
  io: CliIO,
  outDir: string,
  intoDefault = false,
): Promise<{ summaries: Summary[]; study: Study }> {
  const root = io.cwd;
  const study = studyFor(plan, root);
  if (intoDefault && study.exploratory) throw usage('PL_USAGE_EXPLORATORY_NEEDS_OUT', study.why);
  const files = fixtureFiles(plan.fixturesPath, skipNotice(io));
  // A run on worker threads starts them now: they load the engine while this thread reads and checks the fixtures.
  const threads = workerRun(plan, files)?.count;
  const started = threads
    ? startStudyWorkers(
        workerSetup({ ...plan, exploratory: study.exploratory, exploratoryConditions: study.exploratoryConditions }),
        threads - 1,
      )
    : undefined;
  try {
    return await executeRun(
      plan,
      io,
      outDir,
      study,
      files.map((f) => readFixtureFile(f, root)),
      started,
    );
  } finally {
    await started?.close();
  }
}

/** The run itself, from the fixtures as read: `started`, the worker threads started for it. */
async function executeRun(
  plan: Plan,
  io: CliIO,
  outDir: string,
  study: Study,
  listed: readonly FixtureBytes[],
  started: StartedWorkers | undefined,
): Promise<{ summaries: Summary[]; study: Study }> {
  const root = io.cwd;
  if (study.frozen) checkLoaded(listed, study.frozen, plan.fixturesPath, root);
  const running = runningFixtures(plan, listed);
  const fixtures = running.here ?? [];
  const startedAt = new Date().toISOString();
  deepFreeze(fixtures);
  const generated = generatedDir(root, study.frozen?.manifest);
  const tokens = tokenCounter();
  // Model calls happen here, before any condition runs; the conditions themselves stay pure. The embedded backends
  // make no calls, so they need no views built ahead.
  const views = usesModels(plan.models)
    ? fixtures.flatMap((f) => f.fixture.prunePoints.map((point) => buildView(f.fixture, point.id, tokens)))
    : [];
  const prepared = await prepareStudy(plan.models, plan.conditions, views, tokens, plan.seed, io);
  clearDebris(outDir, io);
  let writer: RunWriter | undefined;
  let totals: readonly RunTotals[] = [];
  let ran: readonly Condition[] = [];
  const layout: RunLayout = {
    exploratory: study.exploratory,
    exploratoryConditions: new Set(study.exploratoryConditions),
    bulk: (file) => generated !== null && file.startsWith(`${generated}/`),
    decisionLog: plan.decisionLog,
  };
  try {
    const { value, stop } = await prepared.run<Summary[] | Promise<Summary[]>>((conditions, models, final) => {
      // A model reader runs the study once to collect its questions before the final, written pass.
      const sink = final ? (writer = new RunWriter(outDir, conditions, layout)) : { fixture: () => undefined };
      if (final) ran = conditions;
      const keepTotals = final
        ? (t: readonly RunTotals[]) => {
            totals = t;
          }
        : undefined;
      const progress = startProgress(io, {
        label: 'experiment',
        unit: 'fixtures',
        total: running.workers ? running.workers.bytes.length : fixtures.length,
        conditions: conditions.length,
        quiet: plan.quiet,
        models: () =>
          prepared.gateway ? { calls: prepared.gateway.stats.networkCalls, spentUsd: prepared.gateway.spentUsd } : null,
      });
      const options = {
        conditions,
        fixtures,
        timing: plan.timing,
        placeholders: plan.placeholders,
        tokens,
        exploratory: study.exploratory,
        exploratoryConditions: study.exploratoryConditions,
        // The pass that only collects a model reader's questions writes nothing, so it builds no records.
        decisionRecords: (f: { readonly file: string }) => final && logsDecisions(layout, f.file),
        onProgress: (done: number) => progress.update(done),
      };
      // Worker threads rebuild conditions from the registry and make no model calls, so they run the embedded study
      // of built-in conditions; everything else runs here. The bytes written are the same either way.
      const { workers } = running;
      if (workers && !(writer && parallelizable(conditions))) throw new Error('internal: a worker run must write');
      const result = workers
        ? streamStudyParallel(
            {
              ...options,
              fixtures: workers.bytes,
              workers: workers.count,
              started,
              onFixture: (index, facts) => workers.facts.splice(index, 1, facts),
            },
            writer!,
            keepTotals,
          )
        : streamStudy({ ...options, models }, sink, keepTotals);
      if (result instanceof Promise) return result.finally(() => progress.stop());
      progress.stop();
      return result;
    });
    const summaries = await value;
    if (prepared.gateway) {
      const { networkCalls, cacheHits, finished, failed, firstFailure } = prepared.gateway.stats;
      io.stderr(notices.modelCalls(networkCalls, cacheHits));
      // Every consumer of a failed call abstains, so a run whose every call failed measured nothing: it is a failure.
      if (finished > 0 && failed === finished)
        throw failure('PL_MODEL_CALLS_ALL_FAILED', finished, firstFailure ?? 'unknown');
      if (failed > 0) io.stderr(notices.modelCallsFailed(failed, finished, firstFailure ?? 'unknown'));
    }
    const listings = running.workers ? workerFixtures(running.workers) : fixtures.map(listing);
    for (const f of listings) {
      if (f.oracleFile === null || f.oracleSha256 === null) continue;
      const now = sha256(readFileSync(resolve(root, f.oracleFile)));
      if (now !== f.oracleSha256) throw failure('PL_ORACLE_CHANGED', f.oracleFile, f.oracleSha256, now);
    }
    if (stop && !summaries) throw failure('PL_BUDGET_STOPPED', stop.detail, stop.completed, stop.total, stop.cacheDir);
    if (!writer || !summaries) throw new Error('internal: the study ran no written pass');
    const inputs = manifestInputs(plan, listings, startedAt, study, prepared.calls());
    // A budget-stopped run writes the conditions it finished, atomically like any run, marked incomplete.
    writer.finish(
      summaries,
      stop ? { ...inputs, incomplete: { stoppedBy: 'budget', phase: stop.phase, missing: [...stop.missing] } } : inputs,
    );
    writeShardRecord(
      outDir,
      plan.shard && {
        ...plan.shard,
        fixtures: running.selected,
        charges: chargesRecord(
          ran.map((c) => c.name),
          totals.map((t) => t.charges),
        ),
      },
    );
    if (stop) {
      throw failure(
        'PL_BUDGET_STOPPED_PARTIAL',
        stop.detail,
        stop.completed,
        stop.total,
        stop.cacheDir,
        relativePath(outDir, io.cwd),
        summaries.map((s) => s.condition),
        stop.missing,
      );
    }
    return { summaries, study };
  } catch (err) {
    writer?.abort();
    throw err;
  }
}

/** What the manifest lists of a fixture a run ran. */
type Listing = Pick<LoadedFixture, 'file' | 'sha256' | 'oracleFile' | 'oracleSha256'> & FixtureFacts;

const listing = (f: LoadedFixture): Listing => ({
  file: f.file,
  sha256: f.sha256,
  oracleFile: f.oracleFile,
  oracleSha256: f.oracleSha256,
  id: f.fixture.id,
  families: f.fixture.families,
});

/** The fixtures run on worker threads: the ids they reported must be unique, as loadFixtures requires of a folder. */
function workerFixtures({ bytes, facts }: WorkerFixtures): Listing[] {
  const ran = bytes.map((r, i): Listing => {
    const f = facts[i];
    if (!f) throw new Error(`internal: no worker reported fixture ${r.file}`);
    // A fixture with no oracle beside it passed its worker's checks only as an imported trace, which has none.
    return {
      file: r.file,
      sha256: r.sha256,
      oracleFile: r.oracleSha256 === null ? null : r.oracleFile,
      oracleSha256: r.oracleSha256,
      ...f,
    };
  });
  const dup = duplicateId(ran.map((f) => ({ file: f.file, fixture: f })));
  if (dup) throw input('PL_FIXTURE_DUPLICATE_ID', dup.file, dup.id, dup.other);
  return ran;
}

/** The fixtures a run runs: parsed here (`here`), or as bytes that worker threads parse and check (`workers`). */
interface RunningFixtures {
  readonly here?: LoadedFixture[];
  readonly workers?: WorkerFixtures;
  /** How many fixtures the selection kept before a --shard took its block (the shard record says). */
  readonly selected: number;
}

interface WorkerFixtures {
  readonly bytes: readonly FixtureBytes[];
  readonly count: number;
  /** Each fixture's id and families, filled in as its worker reports them. */
  readonly facts: (FixtureFacts | undefined)[];
}

/**
 * Which fixtures a run runs, and where they are parsed. A run of built-in conditions without model calls over enough
 * fixtures runs on worker threads, and each worker parses and checks its own fixtures from the bytes read here, so
 * this thread never holds the parsed corpus; a fixture that fails its checks then fails the run when the writer
 * reaches it, before anything is put in place. Every other run (a --filter, which needs every fixture's id and
 * families; model-backed or sandboxed conditions; one worker) parses and checks every file here first.
 */
function runningFixtures(plan: Plan, listed: readonly FixtureBytes[]): RunningFixtures {
  const parallel = workerRun(plan, listed);
  if (parallel) {
    const { bytes, count, chosen } = parallel;
    return { workers: { bytes, count, facts: bytes.map(() => undefined) }, selected: chosen.length };
  }
  const loaded = listed.map((r) => parseFixtureBytes(r));
  const dup = duplicateId(loaded);
  if (dup) throw input('PL_FIXTURE_DUPLICATE_ID', dup.file, dup.id, dup.other);
  const chosen = selectFixtures(loaded, plan.selection);
  return { here: plan.shard ? selectShard(chosen, plan.shard) : chosen, selected: chosen.length };
}

/**
 * Whether a run over these fixtures (files or their bytes) runs on worker threads, and if so which fixtures (`chosen`
 * by --limit, then its --shard's block) on how many threads.
 */
function workerRun<T>(plan: Plan, listed: readonly T[]): { chosen: T[]; bytes: T[]; count: number } | undefined {
  if (plan.selection.filters.length > 0 || usesModels(plan.models) || !parallelizable(plan.conditions))
    return undefined;
  const chosen = limited(listed, plan.selection.limit);
  const bytes = plan.shard ? selectShard(chosen, plan.shard) : chosen;
  const count = workersFor(plan.workers, bytes.length);
  return count > 1 && bytes.length > 1 ? { chosen, bytes, count: Math.min(count, bytes.length) } : undefined;
}

function manifestInputs(
  plan: Plan,
  fixtures: readonly Listing[],
  startedAt: string,
  study: Study,
  calls: RoleCalls | undefined,
): ManifestInputs {
  const pkg = packageInfo();
  return {
    artifactVersion: ARTIFACT_VERSION,
    package: { name: pkg.name, version: pkg.version },
    tokenizer: { ...TOKENIZER },
    seed: plan.seed,
    timing: timingLabel(plan.timing),
    placeholders: plan.placeholders,
    decisionLog: plan.decisionLog,
    study: {
      exploratory: study.exploratory,
      preregistration: study.frozen ? { ...study.frozen.preregistration } : null,
      fixtureManifest: study.frozen ? { ...study.frozen.fixtureManifest } : null,
    },
    models: rolesOf(plan.models, calls),
    fixtures: fixtures.map((f) => ({
      file: f.file,
      id: f.id,
      families: [...f.families],
      sha256: f.sha256,
      oracleFile: f.oracleFile,
      oracleSha256: f.oracleSha256,
    })),
    run: { startedAt, ...gitState(), node: process.version },
  };
}

function gitState(): { gitCommit: string; gitDirty: boolean | null } {
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: PACKAGE_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    return {
      gitCommit: git('rev-parse', 'HEAD'),
      gitDirty: git('status', '--porcelain', '--untracked-files=no').length > 0,
    };
  } catch {
    return { gitCommit: 'UNKNOWN', gitDirty: null };
  }
}

/** sha256 of a file's text (decompressed for .gz), undefined when it is absent, 'unreadable' when it cannot be read. */
async function textHash(path: string): Promise<string | undefined> {
  if (!existsSync(path)) return undefined;
  const hash = createHash('sha256');
  try {
    const source = createReadStream(path);
    const sink = async (chunks: AsyncIterable<Buffer>) => {
      for await (const chunk of chunks) hash.update(chunk);
    };
    await (path.endsWith('.gz') ? pipeline(source, createGunzip(), sink) : pipeline(source, sink));
    return hash.digest('hex');
  } catch {
    return 'unreadable';
  }
}

/**
 * Regenerates into a temporary folder and compares, ignoring only the manifest's `run` block. Every file must match
 * the fresh run's hash and the committed manifest's pin; a compressed log that is absent (git-ignored, so missing
 * from a fresh clone) is verified through its pin alone.
 */
const CHECK_TEMP = 'prunelab-check-';

async function check(plan: Plan, io: CliIO): Promise<number> {
  // Named after this process, so the next check removes what a killed one left in the temp folder.
  const removed = removeDeadTemps(tmpdir(), CHECK_TEMP);
  if (removed.length > 0) io.stderr(notices.debrisCleared(tmpdir(), [], removed));
  const temp = mkdtempSync(join(tmpdir(), `${CHECK_TEMP}${process.pid}-`));
  try {
    await execute(plan, io, temp);
    const fresh = readManifest(temp);
    if (!fresh) throw new Error('internal: a fresh run wrote no readable manifest');
    const committed = readManifest(plan.outDir);
    const differs: string[] = [];
    if (!committed) differs.push('manifest.json (missing or invalid)');
    else {
      const inputs = (m: Manifest) => JSON.stringify({ ...m, run: null, conditions: null, outputs: null });
      if (inputs(fresh) !== inputs(committed)) differs.push('manifest.json (inputs)');
      for (const c of fresh.conditions) {
        if (!committed.conditions.some((d) => JSON.stringify(d) === JSON.stringify(c)))
          differs.push(`manifest.json (condition ${c.name})`);
      }
      if (!plan.restricted) {
        for (const c of committed.conditions)
          if (!fresh.conditions.some((d) => d.name === c.name)) differs.push(`${c.name}/ (not produced by this code)`);
        for (const o of committed.outputs)
          if (!fresh.outputs.some((d) => d.file === o.file))
            differs.push(`${o.file} (pinned in manifest.json, not produced by this code)`);
      }
    }
    let pinnedOnly = 0;
    for (const o of fresh.outputs) {
      const pin = committed?.outputs.find((c) => c.file === o.file);
      if (committed && pin?.sha256 !== o.sha256)
        differs.push(`${o.file} (manifest.json pins ${pin?.sha256 ?? 'nothing'}, regeneration gives ${o.sha256})`);
      const actual = await textHash(join(plan.outDir, o.file));
      if (actual === undefined && o.file.endsWith('.gz') && pin?.sha256 === o.sha256) pinnedOnly += 1;
      else if (actual !== o.sha256) differs.push(o.file);
    }
    if (committed)
      for (const f of unpinnedFiles(plan.outDir, committed)) differs.push(messages.PL_RESULTS_FILE_EXTRA(f));
    // What a killed or running writer left is not output this code produces, whatever it holds.
    for (const d of findDebris(plan.outDir)) differs.push(messages.PL_RESULTS_DEBRIS(d.name, d.pid));
    if (differs.length > 0) throw failure('PL_CHECK_DIFFERS', differs);
    io.stdout(
      notices.experimentCheckPassed(
        relativePath(plan.outDir, io.cwd),
        fresh.outputs.length,
        fresh.conditions.length,
        fresh.fixtures.length,
        pinnedOnly,
      ),
    );
    return 0;
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}
