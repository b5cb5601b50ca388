// The base-rate sweep, a secondary analysis of the preregistration (its current version): the same generator at removable
// shares 0.60 and 0.15, each corpus audited for leakage and run through every condition, beside the main corpus
// (0.30, the ecology's anchor, read from results/). It shows which measures move with the base rate: the false-prune rate among
// removals does, the harm rate should not. The sweep corpora are regenerable from their seeds, so they are written
// to a temporary folder and only the table is kept.
//   npm run base-rate
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeAtomic } from '../src/files/atomic.js';
import { notices } from '../src/messages.js';
import { PREREGISTRATION_VERSION } from '../src/study/preregistration.js';
import { fixed, formatRatio } from '../src/report/tables.js';
import { allConditions } from '../src/policy/registry.js';
import type { CliIO } from '../src/cli/io.js';
import { runSteps, type Step } from '../src/cli/progress.js';

const MAIN_SHARE = 0.3;
const SWEEPS = [
  { share: 0.6, seed: 20261204 },
  { share: 0.15, seed: 20261205 },
] as const;
const COUNT = 120;
const OUT = 'results/base-rate';

interface Row {
  share: string;
  audit: string;
  condition: string;
  baseRate: string;
  harm: string;
  fpr: string;
  reduction: string;
}

/** One step of the sweep: the CLI run as a child process, as a user would run it (its npm script's launcher). */
const cliStep = (what: string, args: readonly string[], accepts?: Step['accepts']): Step => ({
  what,
  command: process.execPath,
  args: ['scripts/launch.mjs', 'src/cli/bin.ts', ...args],
  ...(accepts ? { accepts } : {}),
});

/** One label form for every corpus: the share with two decimals, and which corpus it is. */
const shareLabel = (share: number, corpus: 'main' | 'sweep'): string => `${fixed(share, 2)} (${corpus})`;

const ORDER = allConditions().map((c) => c.name);

function rowsOf(results: string, share: string, audit: string): Row[] {
  const names = new Set(
    readdirSync(results, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name),
  );
  return ORDER.filter((c) => names.has(c))
    .map((c) => join(results, c, 'summary.json'))
    .filter((f) => {
      try {
        readFileSync(f);
        return true;
      } catch {
        return false;
      }
    })
    .map(
      (f) =>
        JSON.parse(readFileSync(f, 'utf8')) as {
          condition: string;
          decisions: { total: number };
          coverage: { denominator: number | null };
          harm: { necessaryItems: number; necessaryRemoved: number };
          falsePruneRate: { numerator: number | null; denominator: number | null };
          tokens: { raw: number; final: number };
        },
    )
    .map((s) => ({
      share,
      audit,
      condition: s.condition,
      baseRate: formatRatio(s.coverage.denominator ?? 0, s.decisions.total),
      harm: formatRatio(s.harm.necessaryRemoved, s.harm.necessaryItems),
      fpr: formatRatio(s.falsePruneRate.numerator ?? 0, s.falsePruneRate.denominator ?? 0),
      reduction: fixed(s.tokens.raw === 0 ? null : 1 - s.tokens.final / s.tokens.raw, 3),
    }));
}

function auditVerdict(dir: string): string {
  const line =
    readFileSync(join(dir, 'audit', 'leakage.md'), 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Result:')) ?? 'Result: unknown';
  return line.replace(/^Result: /, '').replace(/\.$/, '');
}

const work = mkdtempSync(join(tmpdir(), 'prunelab-base-rate-'));
const corpora = SWEEPS.map(({ share, seed }) => ({
  share,
  seed,
  fixtures: join(work, `share-${share}`),
  results: join(work, `results-${share}`),
}));
// This script is an outermost entry, like bin.ts: it prints, on stderr, a line per step, each child's own progress
// passing through.
const io: CliIO = {
  cwd: process.cwd(),
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  progress: { tty: process.stderr.isTTY === true, columns: process.stderr.columns ?? 80 },
};
try {
  const steps = corpora.flatMap(({ share, seed, fixtures, results }) => [
    cliStep(`generate ${COUNT} fixtures, share ${fixed(share, 2)}`, [
      'fixtures-generate',
      '--seed',
      String(seed),
      '--count',
      String(COUNT),
      '--removable-share',
      String(share),
      '--out',
      fixtures,
    ]),
    // The audit exits 1 when the corpus leaks; its table says so and the sweep goes on, reporting it.
    cliStep(
      `leak audit, share ${fixed(share, 2)}`,
      ['audit-leakage', '--fixtures', fixtures, '--out', results],
      (status) => status === 0 || status === 1,
    ),
    cliStep(`experiment, share ${fixed(share, 2)}`, ['experiment', '--fixtures', fixtures, '--out', results]),
  ]);
  const outcome = await runSteps(io, { label: 'base-rate', quiet: false }, steps);
  if (outcome.failed) throw new Error(`${outcome.failed.what} failed (exit ${outcome.status}); its messages are above`);
  const rows: Row[] = [
    ...rowsOf('results', shareLabel(MAIN_SHARE, 'main'), auditVerdict('results')),
    ...corpora.flatMap(({ share, results }) => rowsOf(results, shareLabel(share, 'sweep'), auditVerdict(results))),
  ];
  const head =
    '| removable share | leak audit | condition | base rate | harm rate | false-prune rate among removals | net reduction |\n|---|---|---|---|---|---|---|\n';
  const md =
    `Secondary analysis (preregistration version ${PREREGISTRATION_VERSION}, analysis.secondary): outside the Holm family; no criterion reads it.\n\n` +
    `# Base rate: harm rate and false-prune rate at three removable shares\n\n` +
    `The main corpus (${fixed(MAIN_SHARE, 2)}, fixtures/generated) and two corpora of ${COUNT} fixtures from the same generator at ${fixed(SWEEPS[0].share, 2)} (seed ${SWEEPS[0].seed}) and ` +
    `${fixed(SWEEPS[1].share, 2)} (seed ${SWEEPS[1].seed}), regenerated by \`npm run base-rate\`. Counts pooled over each corpus, each necessary unit once per fixture; ` +
    `no intervals (the main corpus's are in tables/measures.md). A corpus whose leak audit fails (see the audit column) shows the ` +
    `base rate's effect plus that leak.\n\n` +
    head +
    rows
      .map(
        (r) =>
          `| ${r.share} | ${r.audit} | \`${r.condition}\` | ${r.baseRate} | ${r.harm} | ${r.fpr} | ${r.reduction} |`,
      )
      .join('\n') +
    '\n';
  const csv =
    'secondary,removable_share,leak_audit,condition,base_rate,harm_rate,false_prune_rate,net_reduction\n' +
    rows
      .map((r) =>
        [
          'true',
          r.share,
          `"${r.audit}"`,
          r.condition,
          `"${r.baseRate}"`,
          `"${r.harm}"`,
          `"${r.fpr}"`,
          r.reduction,
        ].join(','),
      )
      .join('\n') +
    '\n';
  mkdirSync(OUT, { recursive: true });
  writeAtomic(join(OUT, 'base-rate.md'), md);
  writeAtomic(join(OUT, 'base-rate.csv'), csv);
  process.stdout.write(notices.baseRateWritten(OUT, rows.length));
} finally {
  rmSync(work, { recursive: true, force: true });
}
