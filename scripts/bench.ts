// Speed and memory of the study, measured here rather than in timed tests. Each row runs in its own child process,
// so that each peak resident memory is that row's alone:
//   canonical          the engine alone (load, stream every condition, write) over fixtures/canonical;
//   default study      exactly what `npm run experiment` does (frozen-input check, load, stream, write; worker threads
//                      as its default gives them, whose memory counts in this process's peak), in-process,
//                      into a temporary folder instead of results/; then, in the same process, one tokenizer pass
//                      over every item of the corpus, the yardstick the study's time is stated against;
//   default study, --decision-log all
//                      the same run logging the generated corpus's decision records too (no tokenizer pass);
//   long trace N       the engine alone over one synthetic trajectory of N items (scripts/long-trace.ts), for 1,000
//                      and 8,000 items: the cost of one trace must grow linearly with its length.
//   npm run bench
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { tokenCounter } from '../src/accounting/tokens.js';
import { ARTIFACT_VERSION, type Summary } from '../src/artifacts/schema.js';
import { runCli } from '../src/cli/main.js';
import { workersFor } from '../src/engine/parallel.js';
import { streamStudy } from '../src/engine/run.js';
import { RunWriter } from '../src/engine/write.js';
import { loadFixtures } from '../src/load/fixtures.js';
import type { LoadedFixture } from '../src/fixture/load.js';
import { allConditions } from '../src/policy/registry.js';
import { longTrace } from './long-trace.js';

const LONG = [1_000, 8_000] as const;
const ALL_LOGS = 'default study, --decision-log all';
const ROWS = ['canonical', 'default study', ALL_LOGS, ...LONG.map((n) => `long trace ${n}` as const)] as const;
type RowName = (typeof ROWS)[number];

interface Row {
  readonly label: RowName;
  readonly fixtures: number;
  readonly points: number;
  readonly decisions: number;
  readonly rawTokens: number;
  readonly seconds: number;
  /** CPU time over the same span, user and system, every thread of the process (worker threads included). */
  readonly cpuSeconds: number;
  readonly mb: number;
  readonly peakMiB: number;
  /** Default study only: one tokenizer pass over every item of the corpus, in the same process, after the study. */
  readonly tokenizerSeconds?: number;
}

/** One fresh token counter over every item's content, the way a run counts them (each distinct text once). */
function tokenizerPass(fixtures: readonly LoadedFixture[]): number {
  const t0 = performance.now();
  const count = tokenCounter();
  for (const f of fixtures) for (const item of f.fixture.items) count(item.content);
  return (performance.now() - t0) / 1000;
}

function engineAlone(out: string, loaded: readonly LoadedFixture[]): Summary[] {
  const writer = new RunWriter(out, allConditions(), { exploratory: true, bulk: () => false, decisionLog: 'all' });
  const summaries = streamStudy(
    {
      conditions: allConditions(),
      fixtures: loaded,
      timing: { kind: 'immediate' },
      placeholders: 'marker',
      tokens: tokenCounter(),
    },
    writer,
  );
  writer.finish(summaries, {
    artifactVersion: ARTIFACT_VERSION,
    package: { name: 'prunelab', version: 'bench' },
    tokenizer: { package: 'gpt-tokenizer', version: '', encoding: 'o200k_base' },
    seed: 0,
    timing: 'immediate',
    placeholders: 'marker',
    decisionLog: 'all',
    study: { exploratory: true, preregistration: null, fixtureManifest: null },
    models: [],
    fixtures: [],
    run: { startedAt: '', gitCommit: '', gitDirty: null, node: process.version },
  });
  return summaries;
}

/** CPU seconds (user and system, the whole process) since `from`. */
function cpuSince(from: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1e6;
}

function bytesUnder(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce(
    (s, e) => s + (e.isDirectory() ? bytesUnder(join(dir, e.name)) : statSync(join(dir, e.name)).size),
    0,
  );
}

function counts(summaries: readonly Summary[]) {
  return {
    points: summaries[0]!.prunePoints,
    decisions: summaries.reduce((s, r) => s + r.decisions.total, 0),
    rawTokens: summaries[0]!.tokens.raw,
  };
}

async function measure(label: RowName): Promise<Row> {
  const out = mkdtempSync(join(tmpdir(), 'prunelab-bench-'));
  try {
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    let fixtures: number;
    let summaries: Summary[];
    let tokenizerSeconds: number | undefined;
    if (label === 'canonical') {
      const loaded = loadFixtures('fixtures/canonical', process.cwd());
      summaries = engineAlone(out, loaded);
      fixtures = loaded.length;
    } else if (label.startsWith('long trace ')) {
      // The trajectory is built before the clock starts: its construction is not the harness's work.
      const loaded = [longTrace(Number(label.slice('long trace '.length)))];
      const start = performance.now();
      const cpuStart = process.cpuUsage();
      summaries = engineAlone(out, loaded);
      fixtures = 1;
      const seconds = (performance.now() - start) / 1000;
      const cpuSeconds = cpuSince(cpuStart);
      return {
        label,
        fixtures,
        ...counts(summaries),
        seconds,
        cpuSeconds,
        mb: bytesUnder(out) / 1e6,
        peakMiB: process.resourceUsage().maxRSS / 1024,
      };
    } else {
      let stdout = '';
      let stderr = '';
      const logs = label === ALL_LOGS ? ['--decision-log', 'all'] : [];
      const code = await runCli(['experiment', '--out', out, '--json', ...logs], {
        cwd: process.cwd(),
        stdout: (t) => {
          stdout += t;
        },
        stderr: (t) => {
          stderr += t;
        },
        env: process.env,
      });
      if (code !== 0) throw new Error(`npm run experiment failed (exit ${code}): ${stderr}`);
      summaries = JSON.parse(stdout) as Summary[];
      fixtures = summaries[0]!.fixtures;
      const seconds = (performance.now() - t0) / 1000;
      const cpuSeconds = cpuSince(cpu0);
      const mb = bytesUnder(out) / 1e6;
      // The study's own peak, read before the yardstick: the tokenizer pass loads and holds the whole parsed corpus,
      // which the study never does, and would otherwise be counted in the study's row.
      const peakMiB = process.resourceUsage().maxRSS / 1024;
      if (label === 'default study') tokenizerSeconds = tokenizerPass(loadFixtures('fixtures', process.cwd()));
      return {
        label,
        fixtures,
        ...counts(summaries),
        seconds,
        cpuSeconds,
        mb,
        peakMiB,
        tokenizerSeconds,
      };
    }
    const seconds = (performance.now() - t0) / 1000;
    const cpuSeconds = cpuSince(cpu0);
    // maxRSS is in kilobytes: the peak of this whole (child) process, so it includes loading Node and the tokenizer.
    return {
      label,
      fixtures,
      ...counts(summaries),
      seconds,
      cpuSeconds,
      mb: bytesUnder(out) / 1e6,
      peakMiB: process.resourceUsage().maxRSS / 1024,
    };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

const { values } = parseArgs({ options: { row: { type: 'string' } } });
if (values.row !== undefined) {
  if (!(ROWS as readonly string[]).includes(values.row)) throw new Error(`--row must be one of ${ROWS.join(', ')}`);
  process.stdout.write(`${JSON.stringify(await measure(values.row as RowName))}\n`);
} else {
  const self = fileURLToPath(import.meta.url);
  const rows = ROWS.map(
    (r): Row =>
      JSON.parse(
        execFileSync(process.execPath, [...process.execArgv, self, '--row', r], {
          encoding: 'utf8',
          maxBuffer: 1 << 26,
        }),
      ) as Row,
  );
  console.log(
    `Node ${process.version}, ${allConditions().length} conditions, ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'})\n`,
  );
  console.log(
    '| run | fixtures | prune points | decision records | context tokens per condition | wall time (s) | CPU time (s) | output on disk (MB) | peak resident memory (MiB) |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(
      `| ${r.label} | ${r.fixtures} | ${r.points} | ${r.decisions} | ${r.rawTokens} | ${r.seconds.toFixed(1)} | ${r.cpuSeconds.toFixed(1)} | ${r.mb.toFixed(1)} | ${r.peakMiB.toFixed(0)} |`,
    );
  }
  const study = rows.find((r) => r.label === 'default study')!;
  const [short, long] = LONG.map((n) => rows.find((r) => r.label === `long trace ${n}`)!);
  console.log(
    `\nThe default study ran on ${workersFor(undefined, study.fixtures)} thread(s) (the main one and the rest worker threads), as npm run experiment's default gives on this machine.`,
  );
  // A floor over every core, not only those its JavaScript threads used: V8's helper threads run on the others.
  console.log(
    `It used ${study.cpuSeconds.toFixed(1)} s of CPU time over all its threads (user and system): on this machine's ${cpus().length} core(s), busy throughout, no less than ${(study.cpuSeconds / cpus().length).toFixed(1)} s of wall time.`,
  );
  console.log(
    `One tokenizer pass over every item of the corpus: ${study.tokenizerSeconds!.toFixed(2)} s; the study took ${(study.seconds / study.tokenizerSeconds!).toFixed(1)} times that.`,
  );
  console.log(
    `A ${LONG[1]}-item trace took ${(long!.seconds / short!.seconds).toFixed(1)} times a ${LONG[0]}-item one (${(LONG[1] / LONG[0]).toFixed(0)} times the items; the bound is 12).`,
  );
}
