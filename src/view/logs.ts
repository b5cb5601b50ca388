// Reads a condition's decision and point logs for the viewer, each file first checked against the sha256 its
// manifest pins (for a compressed log, over the decompressed text, as the run pinned it): the report's own check
// (../artifacts/verify.ts) skips the compressed logs because no report reads them, and the viewer does.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { DecisionRecord, PointMeasures, type Manifest } from '../artifacts/schema.js';
import { LAYOUT } from '../engine/write.js';
import { input } from '../errors.js';
import { sha256 } from '../fixture/canonical.js';
import { gunzipBounded } from '../fixture/json.js';
import { messages } from '../messages.js';

export interface FixtureLogs {
  readonly records: DecisionRecord[];
  readonly points: PointMeasures[];
  /** False when the run logged this fixture's points but not its decision records (--decision-log committed). */
  readonly logged: boolean;
}

/**
 * A pinned log's text, or undefined when the manifest pins no such file (the run had no fixture in that tier). A
 * pinned file that is absent or hashes otherwise is refused, naming it, before a line of it is read.
 */
export function pinnedLog(dir: string, label: string, manifest: Manifest, file: string): string | undefined {
  const pin = manifest.outputs.find((o) => o.file === file);
  if (!pin) return undefined;
  const path = join(dir, file);
  const shown = `${label}/${file}`;
  if (!existsSync(path))
    throw input('PL_RESULTS_UNVERIFIED', label, [messages.PL_RESULTS_FILE_MISSING(shown, pin.sha256)]);
  const raw = readFileSync(path);
  const bytes = file.endsWith('.gz') ? gunzipBounded(raw, shown) : raw;
  const actual = sha256(bytes);
  if (actual !== pin.sha256)
    throw input('PL_RESULTS_UNVERIFIED', label, [messages.PL_RESULTS_FILE_CHANGED(shown, pin.sha256, actual)]);
  return bytes.toString('utf8');
}

/** Whether a pinned log is there to read: the compressed tier is git-ignored, so a fresh clone has none. */
export function logPresent(dir: string, manifest: Manifest, file: string): boolean {
  return manifest.outputs.some((o) => o.file === file) && existsSync(join(dir, file));
}

/** The lines of a JSONL log that belong to `wanted` fixtures, each validated, grouped by fixture. */
function linesOf<S extends z.ZodType<{ fixture: string }>>(
  text: string,
  shown: string,
  schema: S,
  wanted: ReadonlySet<string>,
): Map<string, z.infer<S>[]> {
  const out = new Map<string, z.infer<S>[]>();
  text.split('\n').forEach((line, i) => {
    if (line === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      throw input(
        'PL_RESULTS_FIELD',
        shown,
        `line ${i + 1}`,
        '(root)',
        `not readable JSON (${(err as Error).message})`,
      );
    }
    const fixture = (value as { fixture?: unknown }).fixture;
    if (typeof fixture !== 'string' || !wanted.has(fixture)) return;
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw input('PL_RESULTS_FIELD', shown, `line ${i + 1}`, issue.path.join('.') || '(root)', issue.message);
    }
    const list = out.get(fixture) ?? [];
    list.push(parsed.data);
    out.set(fixture, list);
  });
  return out;
}

/** The fixture ids a plain decision log holds, in the order the run wrote them. */
export function fixturesIn(text: string): string[] {
  const ids: string[] = [];
  for (const m of text.matchAll(/^\{(?:"exploratory":true,)?"fixture":("(?:[^"\\]|\\.)*")/gm)) {
    const id = JSON.parse(m[1]!) as string;
    if (ids[ids.length - 1] !== id && !ids.includes(id)) ids.push(id);
  }
  return ids;
}

/**
 * A condition's records and point measures for the wanted fixtures, from its plain logs and, only when a wanted
 * fixture is not there, its compressed ones. A compressed tier whose decisions the run did not log (its manifest pins
 * points alone) still gives each fixture's points, marked unlogged.
 */
export function conditionLogs(
  dir: string,
  label: string,
  manifest: Manifest,
  condition: string,
  wanted: ReadonlySet<string>,
): Map<string, FixtureLogs> {
  const out = new Map<string, FixtureLogs>();
  const read = (decisions: string, points: string): void => {
    const left = new Set([...wanted].filter((id) => !out.has(id)));
    if (left.size === 0) return;
    const records = pinnedLog(dir, label, manifest, `${condition}/${decisions}`);
    const measures = pinnedLog(dir, label, manifest, `${condition}/${points}`);
    if (records === undefined && measures === undefined) return;
    const pointsBy = linesOf(measures ?? '', `${label}/${condition}/${points}`, PointMeasures, left);
    if (records === undefined) {
      for (const [id, list] of pointsBy) out.set(id, { records: [], points: list, logged: false });
      return;
    }
    const byFixture = linesOf(records, `${label}/${condition}/${decisions}`, DecisionRecord, left);
    for (const [id, list] of byFixture) out.set(id, { records: list, points: pointsBy.get(id) ?? [], logged: true });
  };
  read(LAYOUT.decisions, LAYOUT.points);
  read(LAYOUT.bulkDecisions, LAYOUT.bulkPoints);
  return out;
}
