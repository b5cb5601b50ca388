// Writes fixtures/MANIFEST.json over fixtures/ (every fixture and oracle with its sha256), keeping a generator block
// already there. The corpus generator writes the same manifest; this covers a corpus with no generated part.
//   npm run fixtures:manifest
import { writeFixtureManifest } from '../src/study/freeze.js';
import { notices } from '../src/messages.js';

const r = writeFixtureManifest(process.cwd());
process.stdout.write(notices.fixtureManifestWritten(r.file, r.fixtures, r.oracles, r.sha256));
