// Speed and memory of a full study, measured here rather than in timed tests. It runs every condition over the
// canonical fixtures, then over the same fixtures replicated to a larger corpus, and prints a Markdown table.
//   npm run bench [-- --copies 20]
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { tokenCounter } from '../src/accounting/tokens.js';
import { runStudy } from '../src/engine/run.js';
import { renderCondition } from '../src/engine/write.js';
import { loadFixtures, type LoadedFixture } from '../src/fixture/load.js';
import { allConditions } from '../src/policy/registry.js';

const { values } = parseArgs({ options: { copies: { type: 'string', default: '20' } } });
const copies = Number(values.copies);

let peakRss = 0;
const sample = setInterval(() => { peakRss = Math.max(peakRss, process.memoryUsage().rss); }, 5);

function replicate(base: readonly LoadedFixture[], n: number): LoadedFixture[] {
  // Copies differ only in id, so the tokenizer cache sees the same texts: this measures the engine, and the
  // first row measures tokenization of fresh texts.
  return Array.from({ length: n }, (_, k) => base.map((f) => ({ ...f, fixture: { ...f.fixture, id: `${f.fixture.id}~${k}` } }))).flat();
}

function measure(label: string, fixtures: readonly LoadedFixture[]) {
  const tokens = tokenCounter();
  const t0 = performance.now();
  const runs = runStudy({ conditions: allConditions(), fixtures, timing: { kind: 'immediate' }, placeholders: 'marker', tokens });
  const t1 = performance.now();
  let bytes = 0;
  for (const run of runs) for (const data of renderCondition(run).values()) bytes += Buffer.byteLength(data);
  const t2 = performance.now();
  const points = fixtures.reduce((s, f) => s + f.fixture.prunePoints.length, 0);
  const decisions = runs.reduce((s, r) => s + r.records.length, 0);
  const rawTokens = runs[0]!.summary.tokens.raw;
  return { label, fixtures: fixtures.length, points, decisions, rawTokens, runMs: t1 - t0, renderMs: t2 - t1, mb: bytes / 1e6, distinct: tokens.distinct() };
}

const t0 = performance.now();
const base = loadFixtures('fixtures/canonical', process.cwd());
const loadMs = performance.now() - t0;
const rows = [measure('canonical', base), measure(`canonical x${copies}`, replicate(base, copies))];
clearInterval(sample);
peakRss = Math.max(peakRss, process.memoryUsage().rss);

console.log(`Node ${process.version}, ${allConditions().length} conditions; loading and validating ${base.length} fixtures: ${loadMs.toFixed(0)} ms\n`);
console.log('| corpus | fixtures | prune points | decision records | context tokens per condition | run (ms) | render (ms) | output (MB) | distinct texts tokenized |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  console.log(`| ${r.label} | ${r.fixtures} | ${r.points} | ${r.decisions} | ${r.rawTokens} | ${r.runMs.toFixed(0)} | ${r.renderMs.toFixed(0)} | ${r.mb.toFixed(1)} | ${r.distinct} |`);
}
console.log(`\npeak resident memory: ${(peakRss / 2 ** 20).toFixed(0)} MiB`);
