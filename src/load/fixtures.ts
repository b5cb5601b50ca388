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
  oraclePathFor,
  parseFixture,
  readJsonBytes,
  type LoadedFixture,
  type OnSkip,
} from '../fixture/load.js';
import { Oracle } from '../fixture/schema.js';
import { parse } from '../fixture/validate.js';
import { checkOracle, oracleLocation } from '../oracle/load.js';

export function loadFixtures(path: string, root: string, onSkip?: OnSkip): LoadedFixture[] {
  const loaded = fixtureFiles(path, onSkip).map((file) => loadFixture(file, root));
  const dup = duplicateId(loaded);
  if (dup) throw input('PL_FIXTURE_DUPLICATE_ID', dup.file, dup.id, dup.other);
  return loaded;
}

export function loadFixture(path: string, root: string): LoadedFixture {
  const file = relativePath(path, root);
  const bytes = readJsonBytes(path, file);
  const fixture = parseFixture(bytes, file);
  const oraclePath = oraclePathFor(path);
  const oracleFile = relativePath(oraclePath, root);
  if (fixture.imported) {
    // An oracle beside an imported trace would be labels nobody derived from obligations; refuse rather than score.
    if (existsSync(oraclePath)) throw input('PL_IMPORTED_WITH_ORACLE', file, oracleFile);
    return { file, sha256: sha256(bytes), fixture, oracleFile: null, oracleSha256: null, oracle: null };
  }
  if (!existsSync(oraclePath)) throw input('PL_ORACLE_MISSING', file, oracleFile);
  const oracleBytes = readRegularFile(oraclePath, oracleFile);
  const oracle = parse(Oracle, oracleBytes, oracleFile, oracleLocation);
  checkOracle(oracle, fixture, oracleFile);
  return { file, sha256: sha256(bytes), fixture, oracleFile, oracleSha256: sha256(oracleBytes), oracle };
}
