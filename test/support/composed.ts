// Compositions of the generator, made once per test worker: the corpus tests read the same (seed, index, share)
// compositions (the study seed's first fixtures at the default share are read by the echo, leakage and size tests),
// and composing, about 50 ms each, is most of what those files cost. A fixture's session (everything but its roles)
// does not depend on the share, so it is composed once and finished at each share asked for (composeSession; the
// finishes equal composeFixture's compositions: test/corpus/generate.test.ts). Frozen all the way down, so no test can
// change what another is given; a test that must edit one copies it.
import { type Composed, composeSession, DEFAULT_REMOVABLE_SHARE } from '../../src/corpus/compose.js';
import { deepFreeze } from '../../src/fixture/freeze.js';

const made = new Map<string, Composed>();
const sessions = new Map<string, (share: number) => Composed>();

/** composeFixture(seed, index, share), frozen, the same object for the same arguments. */
export function composed(seed: number, index: number, share: number = DEFAULT_REMOVABLE_SHARE): Composed {
  const key = `${seed}/${index}/${share}`;
  let c = made.get(key);
  if (!c) {
    const at = `${seed}/${index}`;
    let finish = sessions.get(at);
    if (!finish) sessions.set(at, (finish = composeSession(seed, index)));
    made.set(key, (c = deepFreeze(finish(share))));
  }
  return c;
}
