// Drawing a name that is not taken yet, in a bounded number of steps. Random redraws alone cannot promise that: a
// pool of 32 nouns runs out in a long session, and a loop that redraws until it finds a fresh name never ends once
// every name is taken. So redraws are capped and, past the cap, the last draw gets a counter that makes it fresh.
// The redraws come first and consume the same draws as before, so every name that was found by redrawing (the
// whole committed corpus) is unchanged.

/** `name` with a counter after the stem of its last path segment: `src/cart/applyCart.test.ts` → `src/cart/applyCart2.test.ts`. */
export function numbered(name: string, k: number): string {
  const cut = name.lastIndexOf('/') + 1;
  const tail = name.slice(cut);
  const stem = /^[^.:]*/.exec(tail)![0];
  return `${name.slice(0, cut)}${stem}${k}${tail.slice(stem.length)}`;
}

/**
 * A name from `make` that `taken` does not hold: up to `tries` draws, then the last draw numbered 2, 3, ... .
 * Numbering is injective in the counter, so among `taken.size + 1` counters one is free: the loop is bounded.
 */
export function drawFresh(make: () => string, taken: ReadonlySet<string>, tries: number): string {
  let name = make();
  for (let i = 1; i < tries && taken.has(name); i += 1) name = make();
  if (!taken.has(name)) return name;
  for (let k = 2; k <= taken.size + 2; k += 1) {
    const candidate = numbered(name, k);
    if (!taken.has(candidate)) return candidate;
  }
  throw new Error('internal: numbering found no fresh name');
}
