// Speed and memory of the study, measured here rather than in timed tests. Two rows, each in its own child process
// so that each peak resident memory is that row's alone:
//   canonical      the engine alone (load, stream every condition, finish) over fixtures/canonical;
//   default study  exactly what `npm run experiment` does (frozen-input check, load, stream, write), in-process,
//                  into a temporary folder instead of results/.
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
import { streamStudy } from '../src/engine/run.js';
import { RunWriter } from '../src/engine/write.js';
import { loadFixtures } from '../src/load/fixtures.js';
import { allConditions } from '../src/policy/registry.js';

const ROWS = ['canonical', 'default study'] as const;
type RowName = (typeof ROWS)[number];

interface Row {
  readonly label: RowName;
  readonly fixtures: number;
  readonly points: number;
  readonly decisions: number;
  readonly rawTokens: number;
  readonly seconds: number;
  readonly mb: number;
  readonly peakMiB: number;
}

function bytesUnder(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce((s, e) => s + (e.isDirectory() ? bytesUnder(join(dir, e.name)) : statSync(join(dir, e.name)).size), 0);
}

function counts(summaries: readonly Summary[]) {
  return { points: summaries[0]!.prunePoints, decisions: summaries.reduce((s, r) => s + r.decisions.total, 0), rawTokens: summaries[0]!.tokens.raw };
}

async function measure(label: RowName): Promise<Row> {
  const out = mkdtempSync(join(tmpdir(), 'prunelab-bench-'));
  try {
    const t0 = performance.now();
    let fixtures: number;
    let summaries: Summary[];
    if (label === 'canonical') {
      const loaded = loadFixtures('fixtures/canonical', process.cwd());
      const writer = new RunWriter(out, allConditions(), { exploratory: true, bulk: () => false });
      summaries = streamStudy({ conditions: allConditions(), fixtures: loaded, timing: { kind: 'immediate' }, placeholders: 'marker', tokens: tokenCounter() }, writer);
      writer.finish(summaries, {
        artifactVersion: ARTIFACT_VERSION, package: { name: 'prunelab', version: 'bench' }, tokenizer: { package: 'gpt-tokenizer', version: '', encoding: 'o200k_base' },
        seed: 0, timing: 'immediate', placeholders: 'marker', study: { exploratory: true, preregistration: null, fixtureManifest: null }, models: [], fixtures: [],
        run: { startedAt: '', gitCommit: '', gitDirty: null, node: process.version },
      });
      fixtures = loaded.length;
    } else {
      let stdout = '';
      let stderr = '';
      const code = await runCli(['experiment', '--out', out, '--json'], { cwd: process.cwd(), stdout: (t) => { stdout += t; }, stderr: (t) => { stderr += t; }, env: process.env });
      if (code !== 0) throw new Error(`npm run experiment failed (exit ${code}): ${stderr}`);
      summaries = JSON.parse(stdout) as Summary[];
      fixtures = summaries[0]!.fixtures;
    }
    const seconds = (performance.now() - t0) / 1000;
    // maxRSS is in kilobytes: the peak of this whole (child) process, so it includes loading Node and the tokenizer.
    return { label, fixtures, ...counts(summaries), seconds, mb: bytesUnder(out) / 1e6, peakMiB: process.resourceUsage().maxRSS / 1024 };
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
  const rows = ROWS.map((r): Row => JSON.parse(execFileSync(process.execPath, [...process.execArgv, self, '--row', r], { encoding: 'utf8', maxBuffer: 1 << 26 })) as Row);
  console.log(`Node ${process.version}, ${allConditions().length} conditions, ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'})\n`);
  console.log('| run | fixtures | prune points | decision records | context tokens per condition | wall time (s) | output on disk (MB) | peak resident memory (MiB) |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(`| ${r.label} | ${r.fixtures} | ${r.points} | ${r.decisions} | ${r.rawTokens} | ${r.seconds.toFixed(1)} | ${r.mb.toFixed(1)} | ${r.peakMiB.toFixed(0)} |`);
  }
}
