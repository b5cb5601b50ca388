// The preregistered study's gate: before anything runs, the fixture manifest must be the one the preregistration
// pinned, and every fixture and oracle on disk must be the one that manifest lists. Any difference stops the run.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FixtureManifest as FixtureManifestT } from '../artifacts/schema.js';
import { input } from '../errors.js';
import { byCodeUnit, canonicalJson, relativePath, sha256 } from '../fixture/canonical.js';
import { readJsonBytes, type LoadedFixture } from '../fixture/load.js';
import type { ConditionInfo } from '../policy/types.js';
import { messages } from '../messages.js';
import { diffEntries, oracleFiles, parseFixtureManifest, type Entry } from './manifest.js';
import { loadPreregistration, parsePin, pinFileOf, studyFiles, type Preregistration } from './preregistration.js';

export interface FrozenStudy {
  readonly preregistration: { readonly file: string; readonly sha256: string };
  /** Why the preregistration is not the frozen one (its text no longer hashes to its pin), or null when it is. */
  readonly edited: string | null;
  readonly fixtureManifest: { readonly file: string; readonly sha256: string };
  readonly pinned: Preregistration;
  readonly manifest: FixtureManifestT;
}

/** Differences between what a manifest lists and what is on disk, one line each, naming the file and both hashes. */
export function compareEntries(
  kind: 'fixture' | 'oracle',
  expected: readonly Entry[],
  actual: readonly Entry[],
): string[] {
  return diffEntries(expected, actual).map((d) => {
    switch (d.change) {
      case 'missing':
        return messages.PL_FROZEN_INPUT_MISSING(d.file, kind, d.expected);
      case 'changed':
        return messages.PL_FROZEN_INPUT_CHANGED(d.file, kind, d.expected, d.actual);
      case 'extra':
        return messages.PL_FROZEN_INPUT_EXTRA(d.file, kind, d.actual);
    }
  });
}

/**
 * Loads the preregistration under root and checks the fixture manifest's hash against its pin. The fixtures and
 * oracles are checked against the manifest once they are read (checkLoaded), before any is parsed or run.
 */
export function loadFrozenStudy(root: string, study: string): FrozenStudy {
  const loaded = loadPreregistration(root, studyFiles(study).preregistration);
  const edited = preregistrationEdit(root, loaded.file, loaded.text);
  const pin = loaded.preregistration.fixtureManifest;
  const manifestPath = join(root, pin.file);
  if (!existsSync(manifestPath)) throw input('PL_FROZEN_MANIFEST_MISSING', pin.file, loaded.file);
  const text = readFileSync(manifestPath);
  const actual = sha256(text);
  if (actual !== pin.sha256) throw input('PL_FROZEN_MANIFEST_CHANGED', pin.file, loaded.file, pin.sha256, actual);
  const parsed = parseFixtureManifest(text.toString('utf8'));
  if (!parsed.ok) throw input('PL_FROZEN_MANIFEST_INVALID', pin.file, parsed.field, parsed.problem);
  const manifest = parsed.manifest;
  return {
    preregistration: { file: loaded.file, sha256: sha256(loaded.text) },
    edited,
    fixtureManifest: { file: pin.file, sha256: actual },
    pinned: loaded.preregistration,
    manifest,
  };
}

/**
 * Compares the whole preregistration with the pin beside it. No pin, or one that is not a pin, stops the run (the
 * study was never frozen); a text that no longer hashes to its pin is an edit since freezing: a departure, returned.
 */
function preregistrationEdit(root: string, file: string, text: string): string | null {
  const pinFile = pinFileOf(file);
  let pinText: string;
  try {
    pinText = readFileSync(join(root, pinFile), 'utf8');
  } catch {
    throw input('PL_PREREG_PIN_MISSING', pinFile, file);
  }
  const pinned = parsePin(pinText, file);
  if (pinned === undefined) throw input('PL_PREREG_PIN_INVALID', pinFile, file);
  const actual = sha256(text);
  return actual === pinned ? null : messages.PL_PREREG_EDITED(file, pinFile, pinned, actual);
}

/**
 * The fixtures a run read (every fixture file below fixturesDir, each with its oracle) must be byte for byte the
 * frozen ones, and so must every other oracle file in an oracles/ folder below it, so that an extra one is seen. The
 * hashes are those of the bytes the run will parse: the files are read once, so they cannot change in between.
 */
export function checkLoaded(
  loaded: readonly Pick<LoadedFixture, 'file' | 'sha256' | 'oracleFile' | 'oracleSha256'>[],
  frozen: FrozenStudy,
  fixturesDir: string,
  root: string,
): void {
  const fixtures = loaded.map((l) => ({ file: l.file, sha256: l.sha256 }));
  const oracles = new Map<string, string>();
  for (const l of loaded)
    if (l.oracleFile !== null && l.oracleSha256 !== null) oracles.set(l.oracleFile, l.oracleSha256);
  for (const path of oracleFiles(fixturesDir)) {
    const file = relativePath(path, root);
    if (!oracles.has(file)) oracles.set(file, sha256(readJsonBytes(path, file)));
  }
  const entries = (list: readonly Entry[]) => [...list].sort((a, b) => byCodeUnit(a.file, b.file));
  refuseDifferences(
    frozen.fixtureManifest.file,
    frozen.manifest,
    entries(fixtures),
    entries([...oracles].map(([file, sha]) => ({ file, sha256: sha }))),
  );
}

/** Stops the run, naming every file and both hashes, when fixtures or oracles differ from what the manifest lists. */
function refuseDifferences(
  manifestFile: string,
  manifest: FixtureManifestT,
  fixtures: readonly Entry[],
  oracles: readonly Entry[],
): void {
  const problems = [
    ...compareEntries('fixture', manifest.fixtures, fixtures),
    ...compareEntries('oracle', manifest.oracles, oracles),
  ];
  if (problems.length > 0) throw input('PL_FROZEN_INPUTS_CHANGED', manifestFile, problems);
}

export interface RunShape {
  readonly timing: string;
  readonly placeholders: string;
  readonly seed: number;
  readonly conditions: readonly ConditionInfo[];
  /** Conditions from --policy modules: never preregistered. */
  readonly own: readonly string[];
}

/**
 * Where a run on the frozen inputs departs from the preregistered design; any departure makes the whole run
 * exploratory. A subset of the preregistered conditions is not a departure (the carry-over rules keep a folder
 * consistent), nor is a condition the preregistration does not name: that one runs beside the study, stamped
 * exploratory on its own (see `unnamedConditions`). A preregistered condition whose version, layer, rung or
 * parameters differ is a departure: its rows would pass for the preregistered ones.
 */
export function departures(p: Preregistration, run: RunShape): string[] {
  const out: string[] = [];
  if (run.timing !== p.run.timing) out.push(`timing ${run.timing} (preregistered: ${p.run.timing})`);
  if (run.placeholders !== p.run.placeholders)
    out.push(`placeholders ${run.placeholders} (preregistered: ${p.run.placeholders})`);
  if (run.seed !== p.run.seed) out.push(`seed ${run.seed} (preregistered: ${p.run.seed})`);
  for (const c of run.conditions) {
    const pre = p.conditions.find((x) => x.name === c.name);
    if (!pre || run.own.includes(c.name)) continue;
    if (
      pre.version !== c.version ||
      canonicalJson(pre.parameters) !== canonicalJson(c.parameters) ||
      pre.rung !== c.rung ||
      pre.layer !== c.layer
    ) {
      out.push(`condition ${c.name} differs from its preregistered version, layer, rung or parameters`);
    }
  }
  return out;
}

/**
 * The conditions of a run the preregistration does not name (new built-ins, --policy modules), in run order: each is
 * stamped exploratory on its own while the preregistered conditions, and every verdict, stay confirmatory.
 */
export function unnamedConditions(p: Preregistration, run: RunShape): string[] {
  const named = new Set(p.conditions.map((c) => c.name));
  return run.conditions.filter((c) => run.own.includes(c.name) || !named.has(c.name)).map((c) => c.name);
}
