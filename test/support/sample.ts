// The sample npm test checks where npm run test:reproduce checks a committed artefact whole: every SAMPLE_EVERY-th
// entry, canonical and generated fixtures alike, so a change to any generator, policy or analysis step still shows.

/** Every SAMPLE_EVERY-th entry makes the sample. */
export const SAMPLE_EVERY = 10;

export function sampled<T>(list: readonly T[]): T[] {
  return list.filter((_, i) => i % SAMPLE_EVERY === 0);
}
