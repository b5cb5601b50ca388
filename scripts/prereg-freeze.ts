// Pins the current fixtures/MANIFEST.json into the preregistration, re-renders its prose, and pins the whole
// preregistration in the pin file beside it: an amended preregistration is frozen by this one command.
//   npm run prereg:freeze
import { STUDY } from '../src/cli/study.js';
import { freezePreregistration } from '../src/study/freeze.js';
import { notices } from '../src/messages.js';
import { FIXTURE_MANIFEST_FILE } from '../src/study/manifest.js';

const r = freezePreregistration(process.cwd(), STUDY.name);
process.stdout.write(
  r.pinned === r.previous
    ? notices.preregistrationPinned(r.file, FIXTURE_MANIFEST_FILE, r.pinned)
    : notices.preregistrationRepinned(r.file, FIXTURE_MANIFEST_FILE, r.previous, r.pinned),
);
process.stdout.write(
  notices.preregistrationFrozen(r.pin, r.file, r.preregistration.previous, r.preregistration.pinned),
);
