// Pins the current fixtures/MANIFEST.json into the preregistration and re-renders its prose.
//   npm run prereg:freeze
import { freezePreregistration } from '../src/study/freeze.js';
import { notices } from '../src/messages.js';
import { FIXTURE_MANIFEST_FILE } from '../src/study/manifest.js';

const r = freezePreregistration(process.cwd());
process.stdout.write(r.pinned === r.previous
  ? notices.preregistrationPinned(r.file, FIXTURE_MANIFEST_FILE, r.pinned)
  : notices.preregistrationRepinned(r.file, FIXTURE_MANIFEST_FILE, r.previous, r.pinned));
