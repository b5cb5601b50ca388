// Leaks found in a generator's corpus after it was committed, by generator major version: the checks of the
// committed corpus (test/reproduce/leak-audit.test.ts) and of a sample of it (test/corpus/echo.test.ts) allow
// exactly these, so a generator that fixes one shows it and any other leak still fails. Generator 3.x gives each
// family episode turns of its own (one call and its result) and piles generic steps into shared turns, so how many
// items share a turn, and their kinds, tell episode items from generic work (found 6 December 2026;
// docs/fixtures.md, "A leak the audit did not measure"). Generator 4 lets every unit share turns and draws where each
// piece sits in its turn; its layout leaks no more, but whether an item holds a line no other item in its context
// holds, crossed with its tool's name, does (audited from 7 December 2026; docs/choices.md, "Known open defects").
const KNOWN_LEAKS: Readonly<Record<string, readonly string[]>> = {
  '3': ['turn-size', 'turn-kinds'],
  '4': ['unique-line × tool', 'unique-lines × tool'],
};

/** The known leaks of a generator version (none for a version without any, or none given). */
export function knownLeaks(generatorVersion: string | undefined): readonly string[] {
  return KNOWN_LEAKS[generatorVersion?.split('.')[0] ?? ''] ?? [];
}
