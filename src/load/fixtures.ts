// Reads fixtures and their oracles from disk. Everything the user gives is validated here, with errors that name
// the file, the item and the field; the engine downstream trusts what this returns. It sits above fixture/ and
// oracle/ because it needs both: the oracle's checks build on the fixture's, never the other way round.
import { existsSync } from 'node:fs';
import { input } from '../errors.js';
import { relativePath, sha256 } from '../fixture/canonical.js';
import { readRegularFile } from '../fixture/json.js';
import {
  duplicateId,
  fixtureFiles,
  jsonText,
  oraclePathFor,
  parseFixture,
  type LoadedFixture,
  type OnSkip,
} from '../fixture/load.js';
import { Oracle } from '../fixture/schema.js';
import { parse } from '../fixture/validate.js';
import { checkOracle, oracleLocation } from '../oracle/load.js';

/**
 * A fixture file and the oracle beside it as read from disk, hashed and not yet parsed. A parallel run keeps only
 * these on its main thread (the compressed bytes, a fraction of the parsed corpus) and each worker parses its own
 * fixtures from them, so the bytes a worker checks and runs are the very bytes whose hashes the run recorded.
 */
export interface FixtureBytes {
  /** Path relative to the run's root, with forward slashes, as artifacts record it. */
  readonly file: string;
  /** The file's bytes as stored (gzip-compressed for a `.json.gz` file). */
  readonly raw: Uint8Array;
  /** sha256 of the JSON text (decompressed), as LoadedFixture.sha256. */
  readonly sha256: string;
  /** Where the fixture's oracle belongs, whether or not it is there. */
  readonly oracleFile: string;
  /** null when no oracle file is there (an imported trace has none; any other fixture is refused without one). */
  readonly oracleRaw: Uint8Array | null;
  readonly oracleSha256: string | null;
}

export function loadFixtures(path: string, root: string, onSkip?: OnSkip): LoadedFixture[] {
  const loaded = fixtureFiles(path, onSkip).map((file) => loadFixture(file, root));
  const dup = duplicateId(loaded);
  if (dup) throw input('PL_FIXTURE_DUPLICATE_ID', dup.file, dup.id, dup.other);
  return loaded;
}

export function loadFixture(path: string, root: string): LoadedFixture {
  const { read, text } = readAndHash(path, root);
  return parseFixtureBytes(read, text);
}

/** One fixture file (a path `fixtureFiles` listed) read and hashed, with its oracle, but not parsed. */
export function readFixtureFile(path: string, root: string): FixtureBytes {
  return readAndHash(path, root).read;
}

/** A fixture file and its oracle read and hashed, with the fixture's JSON text (decompressed once, for the hash). */
function readAndHash(path: string, root: string): { read: FixtureBytes; text: Buffer } {
  const file = relativePath(path, root);
  const raw = readRegularFile(path, file);
  const text = jsonText(raw, file);
  const oraclePath = oraclePathFor(path);
  const oracleFile = relativePath(oraclePath, root);
  const oracleRaw = existsSync(oraclePath) ? readRegularFile(oraclePath, oracleFile) : null;
  const read = {
    file,
    raw,
    sha256: sha256(text),
    oracleFile,
    oracleRaw,
    oracleSha256: oracleRaw === null ? null : sha256(oracleRaw),
  };
  return { read, text };
}

/** A fixture parsed and checked from its bytes, with its oracle parsed and checked against it. */
export function parseFixtureBytes(read: FixtureBytes, text: Buffer = jsonText(read.raw, read.file)): LoadedFixture {
  const { file, oracleFile } = read;
  const fixture = parseFixture(text, file);
  if (fixture.imported) {
    // An oracle beside an imported trace would be labels nobody derived from obligations; refuse rather than score.
    if (read.oracleRaw !== null) throw input('PL_IMPORTED_WITH_ORACLE', file, oracleFile);
    return { file, sha256: read.sha256, fixture, oracleFile: null, oracleSha256: null, oracle: null };
  }
  if (read.oracleRaw === null) throw input('PL_ORACLE_MISSING', file, oracleFile);
  const oracle = parse(Oracle, Buffer.from(read.oracleRaw), oracleFile, oracleLocation);
  checkOracle(oracle, fixture, oracleFile);
  return { file, sha256: read.sha256, fixture, oracleFile, oracleSha256: read.oracleSha256, oracle };
}
