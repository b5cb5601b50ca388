// Pins the current fixtures/MANIFEST.json into the preregistration and re-renders its prose.
//   npm run prereg:freeze
import { freezePreregistration } from '../src/study/freeze.js';

const r = freezePreregistration(process.cwd());
process.stdout.write(r.pinned === r.previous
  ? `${r.file} already pins fixtures/MANIFEST.json (sha256 ${r.pinned})\n`
  : `${r.file} now pins fixtures/MANIFEST.json: sha256 ${r.previous} -> ${r.pinned}; rerun npm run experiment\n`);
