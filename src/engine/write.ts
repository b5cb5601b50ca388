// Writes a run's artifacts so that a failure never leaves a partial result. Records are streamed, fixture by
// fixture, into a staging folder inside the output; at the end one journaled swap (./atomic.ts) puts each
// condition's folder, the markers, run.json and the manifest in place, so a kill at any moment leaves the old run
// or the new one whole. Nothing is held in memory beyond one fixture's records and the summaries.
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { createHash, type Hash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { csvRow } from '../artifacts/csv.js';
import {
  Manifest,
  POINT_ROW_COLUMNS,
  type DecisionLog,
  type Manifest as ManifestT,
  type RunBlock,
  type RunRecord,
  type PointMeasures,
  type PointRow,
  type Summary,
} from '../artifacts/schema.js';
import { failure } from '../errors.js';
import { byCodeUnit, sha256 } from '../fixture/canonical.js';
import type { ConditionInfo } from '../policy/types.js';
import { commitSwap, discardStaging, stagingFolder, type SwapStep } from '../files/atomic.js';
import type { FixtureChunk, StudySink } from './run.js';

export { swapIn, writeAtomic } from '../files/atomic.js';

/** What a run knows before it writes: the manifest's inputs, and the volatile facts that go to run.json. */
export type ManifestInputs = Omit<ManifestT, 'outputs' | 'conditions' | 'run'> & { readonly run: RunBlock };

/** The run's volatile facts, git-ignored beside the manifest (see RunRecord). */
export const RUN_FILE = 'run.json';

/** The per-condition files: the committed tier in plain text, the generated corpus's bulk gzip-compressed. */
export const LAYOUT = {
  decisions: 'decisions.jsonl',
  points: 'points.jsonl',
  pointRows: 'points.csv',
  summary: 'summary.json',
  bulkDecisions: 'decisions.generated.jsonl.gz',
  bulkPoints: 'points.generated.jsonl.gz',
  exploratoryMarker: 'EXPLORATORY.md',
  incompleteMarker: 'INCOMPLETE.md',
} as const;

const MARKER_TEXT =
  '# EXPLORATORY\n\nThis run was not checked against the preregistration of its study (under experiments/). ' +
  'Its outputs are exploratory and can never stand for the preregistered study; see manifest.json, study.\n';

/** The marker of one condition the preregistration does not name, in a run that is otherwise the study. */
const CONDITION_MARKER_TEXT =
  '# EXPLORATORY\n\nThe preregistration of this study (under experiments/) does not name this condition. It ran ' +
  'beside the preregistered conditions on the same frozen inputs; its outputs are exploratory, and no verdict reads ' +
  'them. See manifest.json, conditions.\n';

/** The note an incomplete run carries beside its manifest: what is there, what is missing, how to finish. */
function incompleteText(incomplete: NonNullable<ManifestT['incomplete']>, written: readonly string[]): string {
  return (
    `# INCOMPLETE\n\nThis run was stopped by --max-cost-usd during its ${incomplete.phase} calls. The conditions written here ` +
    `are complete: ${written.join(', ')}. Missing: ${incomplete.missing.join(', ')} (each needs a model call that was ` +
    'not made). Every finished call is in the model-call cache; run the same command again with --resume (and a budget ' +
    "for the rest) to finish without repeating a paid call. That run replaces this folder's contents and removes this " +
    'file. See manifest.json, incomplete.\n'
  );
}

/**
 * zlib level 3 rather than the default 6: on decision logs it compresses about 2.5 times faster for about 40% more
 * bytes (measured on the study's logs), and compression was a sixth of a study's time. The bulk files are
 * git-ignored and pinned over their decompressed text, so the level changes their size on disk and nothing else.
 */
const GZIP_LEVEL = 3;

/**
 * One piece of an output file, encoded: its UTF-8 text, which the file's sha256 is over, and for a compressed file
 * the gzip member that holds that text. Pieces are encoded (and compressed) wherever they were rendered, a worker
 * thread or this one, and each piece is one member, so a compressed file's bytes are cut per fixture per condition
 * and do not depend on how many threads ran the study. Concatenated gzip members are one valid gzip stream (RFC
 * 1952); gunzip reads them as one text.
 */
export interface EncodedText {
  readonly text: Uint8Array;
  readonly member?: Uint8Array;
}

/** A rendered chunk encoded: each file's piece. */
export interface EncodedChunk {
  readonly decisions: EncodedText;
  readonly points: EncodedText;
  readonly rows: EncodedText;
}

/** A piece of text as an output file takes it; an empty text is no member (an empty member would still be bytes). */
export function encodeText(text: string, gzip: boolean): EncodedText {
  // Not TextEncoder: its buffers are collected later (a one-thread study peaked about 100 MB higher on 100 fixtures).
  const bytes = Buffer.from(text, 'utf8');
  return gzip && bytes.length > 0 ? { text: bytes, member: gzipSync(bytes, { level: GZIP_LEVEL }) } : { text: bytes };
}

/** A chunk's pieces; the decision and point lines of a bulk (generated-corpus) fixture are compressed. */
export function encodeChunk(text: RenderedChunk, bulk: boolean): EncodedChunk {
  return {
    decisions: encodeText(text.decisions, bulk),
    points: encodeText(text.points, bulk),
    rows: encodeText(text.rows, false),
  };
}

/** The manifest a folder holds, or undefined when it has none or one this code cannot read. */
export function readManifest(dir: string): ManifestT | undefined {
  try {
    return Manifest.parse(JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')));
  } catch {
    return undefined;
  }
}

/** Inputs that must match for an earlier run's condition folders to stand beside this run's. */
function sameInputs(a: ManifestT, b: ManifestInputs): boolean {
  // Call counts describe one run (a resumed run replays what the stopped one paid for), not its inputs.
  const roles = (m: Omit<ManifestInputs, 'run'>) => m.models.map(({ calls: _calls, ...role }) => role);
  const sig = (m: Omit<ManifestInputs, 'run'>) =>
    JSON.stringify([
      m.package,
      m.tokenizer,
      m.seed,
      m.timing,
      m.placeholders,
      m.decisionLog,
      m.study,
      roles(m),
      m.fixtures,
    ]);
  return sig(a) === sig(b);
}

/** An output file written in pieces; its sha256 is over the text (before compression for a gzip file). */
class OutputFile {
  private readonly fd: number;
  private readonly hash: Hash = createHash('sha256');
  constructor(
    readonly file: string,
    path: string,
    private readonly gzip: boolean,
  ) {
    mkdirSync(dirname(path), { recursive: true });
    this.fd = openSync(path, 'w');
  }
  write(text: string): void {
    this.writeEncoded(encodeText(text, this.gzip));
  }
  writeEncoded(piece: EncodedText): void {
    if (piece.text.length === 0) return;
    if ((piece.member !== undefined) !== this.gzip)
      throw new Error(`internal: ${this.file} was handed ${piece.member ? 'compressed' : 'plain'} text`);
    this.hash.update(piece.text);
    writeSync(this.fd, piece.member ?? piece.text);
  }
  close(): { file: string; sha256: string } {
    closeSync(this.fd);
    return { file: this.file, sha256: this.hash.digest('hex') };
  }
  abandon(): void {
    try {
      closeSync(this.fd);
    } catch {
      // Already closed; the staging folder is removed anyway.
    }
  }
}

/**
 * summary.json: indented for reading, except that each per-fixture entry takes one line, which keeps a summary over
 * hundreds of fixtures small and its diffs one line per fixture.
 */
export function renderSummary(summary: Summary): string {
  const { perFixture, ...pooled } = summary;
  const head = JSON.stringify(pooled, null, 2).replace(/\n\}$/, '');
  const entries = perFixture.map((f) => `    ${JSON.stringify(f)}`).join(',\n');
  return `${head},\n  "perFixture": [${perFixture.length ? `\n${entries}\n  ` : ''}]\n}\n`;
}

export function pointRow(p: PointMeasures, exploratory: boolean): PointRow {
  return {
    exploratory,
    fixture: p.fixture,
    prunePoint: p.prunePoint,
    decisions: p.decisions.total,
    keep: p.decisions.keep,
    prune: p.decisions.prune,
    defer: p.decisions.defer,
    abstain: p.decisions.abstain,
    truePrunes: p.precision.numerator,
    falsePrunes: p.falsePruneRate.numerator,
    coverageDenominator: p.coverage.denominator,
    necessaryItems: p.harm?.necessaryItems ?? null,
    necessaryRemoved: p.harm?.necessaryRemoved ?? null,
    obligationsPreserved: p.obligations.preserved,
    obligationsTotal: p.obligations.total,
    refetchAlerts: p.refetchAlerts,
    rawTokens: p.tokens.raw,
    removedTokens: p.tokens.removed,
    placeholderTokens: p.tokens.placeholder,
    overheadTokens: p.tokens.overhead,
    finalTokens: p.tokens.final,
  };
}

export function csvLine(row: PointRow): string {
  return csvRow(POINT_ROW_COLUMNS.map((c) => row[c]));
}

/** One condition's lines for one fixture: its decision records, its prune points' measures and their CSV rows. */
export interface RenderedChunk {
  readonly decisions: string;
  readonly points: string;
  readonly rows: string;
}

/** A chunk as the writer's files hold it; pure, so a worker thread renders what the writer would. */
export function renderChunk(chunk: Pick<FixtureChunk, 'records' | 'points'>, exploratory: boolean): RenderedChunk {
  const line = (row: object) => `${JSON.stringify(exploratory ? { exploratory: true, ...row } : row)}\n`;
  return {
    decisions: chunk.records.map(line).join(''),
    points: chunk.points.map(line).join(''),
    rows: chunk.points.map((p) => csvLine(pointRow(p, exploratory))).join(''),
  };
}

export interface RunLayout {
  /** Whether a fixture file belongs to the generated corpus, whose full logs are compressed and not committed. */
  readonly bulk: (fixtureFile: string) => boolean;
  /** Whose decision records are logged: with `committed`, a bulk fixture's points alone. */
  readonly decisionLog: DecisionLog;
  readonly exploratory: boolean;
  /**
   * Conditions stamped exploratory one by one in a run that is otherwise confirmatory (the preregistration does not
   * name them): their rows, folder marker and manifest entry say so; the rest of the run stays the study.
   */
  readonly exploratoryConditions?: ReadonlySet<string>;
}

/** Whether a fixture's decision records are logged (and so built at all) in a run of this layout. */
export function logsDecisions(layout: Pick<RunLayout, 'bulk' | 'decisionLog'>, fixtureFile: string): boolean {
  return layout.decisionLog === 'all' || !layout.bulk(fixtureFile);
}

interface ConditionFiles {
  readonly decisions: OutputFile;
  readonly points: OutputFile;
  readonly rows: OutputFile;
  bulkDecisions?: OutputFile;
  bulkPoints?: OutputFile;
}

/** Every file a condition has open, the bulk ones only once a generated fixture opened them (and logged them). */
function filesOf(f: ConditionFiles): OutputFile[] {
  return [f.decisions, f.points, f.rows, f.bulkDecisions, f.bulkPoints].filter(
    (file): file is OutputFile => file !== undefined,
  );
}

/**
 * A run being written. Open it before the study runs, hand it to streamStudy as the sink, then finish() with the
 * summaries, or abort() on any failure: the output folder is then exactly as it was.
 */
export class RunWriter implements StudySink {
  private readonly staging: string;
  private readonly createdOut: boolean;
  private readonly files = new Map<string, ConditionFiles>();
  private done = false;

  constructor(
    private readonly outDir: string,
    private readonly conditions: readonly ConditionInfo[],
    private readonly layout: RunLayout,
  ) {
    this.createdOut = !existsSync(outDir);
    this.staging = stagingFolder(outDir);
    try {
      rmSync(this.staging, { recursive: true, force: true });
      mkdirSync(this.staging, { recursive: true });
      for (const c of conditions) {
        this.files.set(c.name, {
          decisions: this.open(c.name, LAYOUT.decisions, false),
          points: this.open(c.name, LAYOUT.points, false),
          rows: this.open(c.name, LAYOUT.pointRows, false),
        });
        this.files.get(c.name)!.rows.write(csvRow(POINT_ROW_COLUMNS));
      }
    } catch (err) {
      this.abort();
      throw failure('PL_IO', outDir, (err as Error).message);
    }
  }

  /** Whether a condition's outputs are stamped exploratory: all of an exploratory run's, or this one's alone. */
  private exploratory(condition: string): boolean {
    return this.layout.exploratory || (this.layout.exploratoryConditions?.has(condition) ?? false);
  }

  private open(condition: string, name: string, gzip: boolean): OutputFile {
    return new OutputFile(`${condition}/${name}`, join(this.staging, condition, name), gzip);
  }

  fixture(chunk: FixtureChunk): void {
    const { file } = chunk.loaded;
    const text = renderChunk(chunk, this.exploratory(chunk.condition.name));
    this.encoded(chunk.condition.name, file, encodeChunk(text, this.bulk(file)));
  }

  /** Whether a fixture's decision and point lines go to the compressed bulk files. */
  bulk(fixtureFile: string): boolean {
    return this.layout.bulk(fixtureFile);
  }

  /** Writes one condition's encoded text for one fixture (encoded here or in a worker thread, the same bytes). */
  encoded(condition: string, fixtureFile: string, chunk: EncodedChunk): void {
    const f = this.files.get(condition);
    if (!f) throw new Error(`internal: condition ${condition} was not opened for writing`);
    const bulk = this.bulk(fixtureFile);
    const logged = logsDecisions(this.layout, fixtureFile);
    if (!logged && chunk.decisions.text.length > 0)
      throw new Error(`internal: decision records of ${fixtureFile} were built for a run that does not log them`);
    try {
      if (bulk) {
        if (logged) f.bulkDecisions ??= this.open(condition, LAYOUT.bulkDecisions, true);
        f.bulkPoints ??= this.open(condition, LAYOUT.bulkPoints, true);
      }
      if (logged) (bulk ? f.bulkDecisions! : f.decisions).writeEncoded(chunk.decisions);
      (bulk ? f.bulkPoints! : f.points).writeEncoded(chunk.points);
      f.rows.writeEncoded(chunk.rows);
    } catch (err) {
      throw failure('PL_IO', this.outDir, (err as Error).message);
    }
  }

  /**
   * Appends text already rendered (by a shard's writer) to one of a condition's files: the merge of shards writes
   * through here fixture by fixture, so a compressed file is cut into the same members as in an unsharded run.
   */
  appendRendered(
    condition: string,
    file: 'decisions' | 'points' | 'pointRows' | 'bulkDecisions' | 'bulkPoints',
    text: string,
  ): void {
    const f = this.files.get(condition);
    if (!f) throw new Error(`internal: condition ${condition} was not opened for writing`);
    try {
      if (file === 'bulkDecisions') (f.bulkDecisions ??= this.open(condition, LAYOUT.bulkDecisions, true)).write(text);
      else if (file === 'bulkPoints') (f.bulkPoints ??= this.open(condition, LAYOUT.bulkPoints, true)).write(text);
      else (file === 'pointRows' ? f.rows : f[file]).write(text);
    } catch (err) {
      throw failure('PL_IO', this.outDir, (err as Error).message);
    }
  }

  /**
   * Writes summaries, marker files and the manifest, then swaps the condition folders in. Condition folders an
   * earlier run left stay (and stay in the manifest) only when that run had the same inputs; otherwise they are
   * removed as stale, so the manifest always describes exactly what the folder holds.
   */
  finish(summaries: readonly Summary[], inputs: ManifestInputs): ManifestT {
    try {
      const written: { file: string; sha256: string }[] = [];
      const text = (file: string, data: string) => {
        const out = new OutputFile(file, join(this.staging, file), false);
        out.write(data);
        written.push(out.close());
      };
      for (const c of this.conditions) {
        const f = this.files.get(c.name)!;
        for (const file of filesOf(f)) written.push(file.close());
        const summary = summaries.find((s) => s.condition === c.name);
        if (!summary) throw new Error(`internal: no summary for condition ${c.name}`);
        text(`${c.name}/${LAYOUT.summary}`, renderSummary(summary));
        if (this.exploratory(c.name))
          text(`${c.name}/${LAYOUT.exploratoryMarker}`, this.layout.exploratory ? MARKER_TEXT : CONDITION_MARKER_TEXT);
      }
      if (this.layout.exploratory) text(LAYOUT.exploratoryMarker, MARKER_TEXT);
      if (inputs.incomplete)
        text(
          LAYOUT.incompleteMarker,
          incompleteText(
            inputs.incomplete,
            this.conditions.map((c) => c.name),
          ),
        );
      this.files.clear();
      const previous = readManifest(this.outDir);
      const fresh = new Set(this.conditions.map((c) => c.name));
      // An incomplete run carries nothing over, so its folder holds exactly what its manifest says is there.
      const carried =
        previous && !inputs.incomplete && sameInputs(previous, inputs)
          ? previous.conditions.filter((c) => !fresh.has(c.name) && existsSync(join(this.outDir, c.name)))
          : [];
      const stale = previous ? previous.conditions.filter((c) => !fresh.has(c.name) && !carried.includes(c)) : [];
      const outputs = [
        ...written,
        ...(previous?.outputs.filter((o) => carried.some((c) => o.file.startsWith(`${c.name}/`))) ?? []),
      ].sort((a, b) => byCodeUnit(a.file, b.file));
      const conditions = [
        ...carried,
        ...this.conditions.map((c) => ({
          name: c.name,
          layer: c.layer,
          rung: c.rung,
          version: c.version,
          ...(this.exploratory(c.name) && !this.layout.exploratory ? { exploratory: true as const } : {}),
        })),
      ].sort((a, b) => byCodeUnit(a.name, b.name));
      const { run, ...fixed } = inputs;
      const manifest: ManifestT = { ...fixed, conditions, outputs };
      const manifestText = `${JSON.stringify(manifest, null, 2)}\n`;
      const record: RunRecord = { manifestSha256: sha256(manifestText), ...run };
      writeFileSync(join(this.staging, 'manifest.json'), manifestText);
      writeFileSync(join(this.staging, RUN_FILE), `${JSON.stringify(record, null, 2)}\n`);
      const marker = (name: string, present: boolean): SwapStep => (present ? { move: name } : { remove: name });
      commitSwap(this.outDir, this.staging, [
        ...this.conditions.map((c) => ({ move: c.name })),
        marker(LAYOUT.exploratoryMarker, this.layout.exploratory),
        marker(LAYOUT.incompleteMarker, Boolean(inputs.incomplete)),
        { move: 'manifest.json' },
        { move: RUN_FILE },
        ...stale.map((c) => ({ remove: c.name })),
      ]);
      this.done = true;
      return manifest;
    } catch (err) {
      throw failure('PL_IO', this.outDir, (err as Error).message);
    } finally {
      this.cleanUp();
    }
  }

  /** Drops everything staged; removes the output folder too when this run created it and it is still empty. */
  abort(): void {
    for (const f of this.files.values()) for (const file of filesOf(f)) file.abandon();
    this.files.clear();
    this.cleanUp();
  }

  private cleanUp(): void {
    try {
      discardStaging(this.staging);
      if (!this.done && this.createdOut && existsSync(this.outDir) && readdirSync(this.outDir).length === 0)
        rmSync(this.outDir, { recursive: true });
    } catch {
      // The error that brought us here matters more than a staging folder that could not be cleaned.
    }
  }
}
