// Speed and memory of a full study, measured here rather than in timed tests. It runs every condition over the
// canonical fixtures, then over the same fixtures replicated to a larger corpus, and prints a Markdown table.
//   npm run bench [-- --copies 20]
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { tokenCounter } from '../src/accounting/tokens.js';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { streamStudy } from '../src/engine/run.js';
import { RunWriter } from '../src/engine/write.js';
import { loadFixtures, type LoadedFixture } from '../src/fixture/load.js';
import { allConditions } from '../src/policy/registry.js';

const { values } = parseArgs({ options: { copies: { type: 'string', default: '20' } } });
const copies = Number(values.copies);

let peakRss = 0;
const sample = setInterval(() => { peakRss = Math.max(peakRss, process.memoryUsage().rss); }, 5);

function replicate(base: readonly LoadedFixture[], n: number): LoadedFixture[] {
  // Copies differ only in id, so the tokenizer cache sees the same texts: this measures the engine, and the
  // first row measures tokenization of fresh texts.
  // They stand in for a generated corpus, so their full logs are written compressed as the generated corpus's are.
  return Array.from({ length: n }, (_, k) => base.map((f) => ({
    ...f, file: `fixtures/generated/${f.fixture.id}~${k}.json`, fixture: { ...f.fixture, id: `${f.fixture.id}~${k}` },
  }))).flat();
}

function bytesUnder(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce((s, e) => s + (e.isDirectory() ? bytesUnder(join(dir, e.name)) : statSync(join(dir, e.name)).size), 0);
}

function measure(label: string, fixtures: readonly LoadedFixture[]) {
  const tokens = tokenCounter();
  const out = mkdtempSync(join(tmpdir(), 'prunelab-bench-'));
  const t0 = performance.now();
  const writer = new RunWriter(out, allConditions(), { exploratory: true, bulk: (file) => file.startsWith('fixtures/generated/') });
  const summaries = streamStudy({ conditions: allConditions(), fixtures, timing: { kind: 'immediate' }, placeholders: 'marker', tokens }, writer);
  const t1 = performance.now();
  writer.finish(summaries, {
    artifactVersion: 1, package: { name: 'prunelab', version: 'bench' }, tokenizer: { package: 'gpt-tokenizer', version: '', encoding: 'o200k_base' },
    seed: 0, timing: 'immediate', placeholders: 'marker', study: { exploratory: true, preregistration: null, fixtureManifest: null }, models: [], fixtures: [],
    run: { startedAt: '', gitCommit: '', gitDirty: null, node: process.version },
  });
  const t2 = performance.now();
  const bytes = bytesUnder(out);
  rmSync(out, { recursive: true, force: true });
  const points = fixtures.reduce((s, f) => s + f.fixture.prunePoints.length, 0);
  const decisions = summaries.reduce((s, r) => s + r.decisions.total, 0);
  const rawTokens = summaries[0]!.tokens.raw;
  return { label, fixtures: fixtures.length, points, decisions, rawTokens, runMs: t1 - t0, renderMs: t2 - t1, mb: bytes / 1e6, distinct: tokens.distinct() };
}

const t0 = performance.now();
const base = loadFixtures('fixtures/canonical', process.cwd());
const loadMs = performance.now() - t0;
const rows = [measure('canonical', base), measure(`canonical x${copies}`, replicate(base, copies))];
clearInterval(sample);
peakRss = Math.max(peakRss, process.memoryUsage().rss);

console.log(`Node ${process.version}, ${allConditions().length} conditions; loading and validating ${base.length} fixtures: ${loadMs.toFixed(0)} ms\n`);
console.log('| corpus | fixtures | prune points | decision records | context tokens per condition | run and stream (ms) | finish (ms) | output on disk (MB) | distinct texts tokenized |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  console.log(`| ${r.label} | ${r.fixtures} | ${r.points} | ${r.decisions} | ${r.rawTokens} | ${r.runMs.toFixed(0)} | ${r.renderMs.toFixed(0)} | ${r.mb.toFixed(1)} | ${r.distinct} |`);
}
console.log(`\npeak resident memory: ${(peakRss / 2 ** 20).toFixed(0)} MiB`);
