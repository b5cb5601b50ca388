// Helpers for the report tests: a copy of the committed results without decision logs (the report must not need
// them), a way to restamp its manifest, and a small PNG decoder so tests can look at the pixels.
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { csvCells } from '../../src/artifacts/csv.js';
import { Manifest } from '../../src/artifacts/schema.js';
import { InputError } from '../../src/errors.js';
import { sha256 } from '../../src/fixture/canonical.js';
import { sampled } from '../support/sample.js';
import { STUDY } from '../../experiments/ch10-ablation/study.js';
import { analyse, type Analysis } from '../../src/report/analysis.js';
import { loadResults } from '../../src/report/load.js';
import { planOf } from '../../src/report/plan.js';
import { loadPreregistration } from '../../src/study/preregistration.js';
import { PREREGISTRATION_FILE } from '../support/study.js';

export const RESULTS = 'results';

let quick: Analysis | undefined;

/**
 * The committed results analysed under the preregistration with 20 bootstrap iterations instead of its 10,000: the
 * figures and marks tests read, not the intervals. Built once per test worker (each build reads every summary).
 */
export function quickAnalysis(): Analysis {
  if (quick) return quick;
  const real = structuredClone(loadPreregistration('.', PREREGISTRATION_FILE).preregistration);
  const plan = planOf(
    { ...real, analysis: { ...real.analysis, bootstrap: { ...real.analysis.bootstrap, iterations: 20 } } },
    PREREGISTRATION_FILE,
    'x',
    STUDY,
  );
  quick = analyse(loadResults(RESULTS), plan);
  return quick;
}

/** The one table read from the decision logs (a package's disagreements with the reimplementation it shadows). */
export const SHADOW_TABLES = ['tables/shadows.md', 'tables/shadows.csv'];

/** The files of a results folder's `sub` folder, as `sub/name`, sorted. */
export function listing(dir: string, sub: string): string[] {
  return readdirSync(join(dir, sub))
    .map((f) => `${sub}/${f}`)
    .sort();
}

/** A temp folder holding manifest.json and each condition's summary.json and points.csv, no decision logs or points.jsonl. */
export function copyResults(edit?: (m: Manifest) => Manifest): string {
  const dir = mkdtempSync(join(tmpdir(), 'prunelab-report-'));
  const manifest = Manifest.parse(JSON.parse(readFileSync(join(RESULTS, 'manifest.json'), 'utf8')));
  for (const c of manifest.conditions) {
    mkdirSync(join(dir, c.name));
    for (const f of ['summary.json', 'points.csv']) copyFileSync(join(RESULTS, c.name, f), join(dir, c.name, f));
  }
  writeFileSync(join(dir, 'manifest.json'), `${JSON.stringify(edit ? edit(manifest) : manifest, null, 2)}\n`);
  return dir;
}

/**
 * As copyResults, but holding only every SAMPLE_EVERY-th fixture of the committed results: their manifest entries,
 * points.csv rows and perFixture measures (the rest of each summary is as committed), the manifest re-pinned. It
 * is a folder a run could have written; the analysis of it costs a tenth of the full one (the bootstrap resamples
 * fixtures), for tests about what the report and publish do with a folder rather than about the committed figures.
 */
export function copyResultsSample(edit?: (m: Manifest) => Manifest): string {
  pristine ??= writeSample();
  const dir = mkdtempSync(join(tmpdir(), 'prunelab-report-'));
  cpSync(pristine, dir, { recursive: true });
  if (edit) {
    const path = join(dir, 'manifest.json');
    writeFileSync(path, `${JSON.stringify(edit(Manifest.parse(JSON.parse(readFileSync(path, 'utf8')))), null, 2)}\n`);
    repin(dir);
  }
  return dir;
}

/**
 * The sample as copyResultsSample hands it out unedited, written once per test worker (about 0.4 s: every condition's
 * summary and points read, filtered and written, the outputs hashed) and never handed out itself: each call copies it
 * (about 0.03 s). An edit is applied to the copy's manifest and the copy re-pinned, as a sample made from the edited
 * manifest would be (the edits change the study's stamp, not what the folder holds).
 */
let pristine: string | undefined;

function writeSample(): string {
  const dir = copyResults((m) => ({ ...m, fixtures: sampled(m.fixtures) }));
  const manifest = Manifest.parse(JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')));
  const kept = new Set(manifest.fixtures.map((f) => f.id));
  for (const { name } of manifest.conditions) {
    const points = join(dir, name, 'points.csv');
    const [header, ...rows] = readFileSync(points, 'utf8')
      .split('\n')
      .filter((l) => l.length > 0);
    const column = header!.split(',').indexOf('fixture');
    const keptRows = rows.filter((r) => kept.has(csvCells(r)[column]!));
    writeFileSync(points, `${[header, ...keptRows].join('\n')}\n`);
    const file = join(dir, name, 'summary.json');
    const summary = JSON.parse(readFileSync(file, 'utf8')) as { perFixture: { fixture: string }[] };
    const perFixture = summary.perFixture.filter((f) => kept.has(f.fixture));
    const sampled = { ...summary, fixtures: perFixture.length, prunePoints: keptRows.length, perFixture };
    writeFileSync(file, `${JSON.stringify(sampled, null, 2)}\n`);
  }
  repin(dir);
  return dir;
}

/**
 * Re-pins every present output of a results folder in its manifest: a folder whose files match their pins but
 * hold what no run would write, to test the validation that follows the hash check.
 */
export function repin(dir: string): void {
  const path = join(dir, 'manifest.json');
  const manifest = Manifest.parse(JSON.parse(readFileSync(path, 'utf8')));
  const outputs = manifest.outputs.map((o) =>
    existsSync(join(dir, o.file)) ? { ...o, sha256: sha256(readFileSync(join(dir, o.file))) } : o,
  );
  writeFileSync(path, `${JSON.stringify({ ...manifest, outputs }, null, 2)}\n`);
}

export interface Image {
  readonly width: number;
  readonly height: number;
  /** RGBA, row-major. */
  readonly pixels: Uint8Array;
}

/** Decodes an 8-bit RGBA, non-interlaced PNG (what resvg writes). */
export function decodePng(png: Buffer): Image {
  if (png.subarray(0, 8).toString('hex') !== '89504e470d0a1a0a') throw new Error('not a PNG');
  let offset = 8;
  let width = 0;
  let height = 0;
  const idat: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('ascii', offset + 4, offset + 8);
    const data = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      if (data[8] !== 8 || data[9] !== 6 || data[12] !== 0) throw new Error('expected 8-bit RGBA, not interlaced');
    }
    if (type === 'IDAT') idat.push(data);
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * 4;
  const pixels = new Uint8Array(stride * height);
  for (let y = 0; y < height; y += 1) {
    const filter = raw[y * (stride + 1)]!;
    for (let x = 0; x < stride; x += 1) {
      const v = raw[y * (stride + 1) + 1 + x]!;
      const a = x >= 4 ? pixels[y * stride + x - 4]! : 0;
      const b = y > 0 ? pixels[(y - 1) * stride + x]! : 0;
      const c = x >= 4 && y > 0 ? pixels[(y - 1) * stride + x - 4]! : 0;
      const p = a + b - c;
      const pa = Math.abs(p - a);
      const pb = Math.abs(p - b);
      const pc = Math.abs(p - c);
      const paeth = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      const add = [0, a, b, (a + b) >> 1, paeth][filter];
      if (add === undefined) throw new Error(`bad PNG filter ${filter}`);
      pixels[y * stride + x] = (v + add) & 0xff;
    }
  }
  return { width, height, pixels };
}

/** The InputError `f` throws; fails the test when it throws nothing or something else. */
export function thrown(f: () => unknown): InputError {
  try {
    f();
  } catch (err) {
    if (err instanceof InputError) return err;
    throw err;
  }
  throw new Error('expected an InputError');
}
