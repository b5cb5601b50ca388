// Writes fixtures/MANIFEST.json over fixtures/ (every fixture and oracle with its sha256), keeping a generator block
// already there. The corpus generator writes the same manifest; this covers a corpus with no generated part.
//   npm run fixtures:manifest
import { writeFixtureManifest } from '../src/study/freeze.js';

const r = writeFixtureManifest(process.cwd());
process.stdout.write(`wrote ${r.file}: ${r.fixtures} fixtures, ${r.oracles} oracles, sha256 ${r.sha256}\n`);
