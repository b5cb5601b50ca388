// The rolling hash of a text's 16-character runs, shared by the two indexes that prove a line held by no other item
// without searching for it: the generator's (held.ts) and the leak audit's line features (src/audit/line-features.ts).
// An item holding a line holds every run of it, so a line one of whose recorded runs is on no other item is held by
// none; which runs are recorded depends on their characters alone, so both sides of that argument see the same runs.

/** Length of the runs recorded: shorter runs are in most long reads' text, whatever the line. */
export const RUN = 16;

/** 31^RUN mod 2^32, what the oldest character weighs in the rolling hash of a run. */
const OLDEST = (() => {
  let w = 1;
  for (let i = 0; i < RUN; i += 1) w = Math.imul(w, 31);
  return w;
})();

/** The rolling hash of text[0..at], extended by one character (the one RUN back dropped). */
function roll(hash: number, text: string, at: number): number {
  const h = (Math.imul(hash, 31) + text.charCodeAt(at)) | 0;
  return at >= RUN ? (h - Math.imul(OLDEST, text.charCodeAt(at - RUN))) | 0 : h;
}

/**
 * Which runs an index records, and where: a well-mixed form of the run's hash, or -1 for the three runs in four left
 * out. Recording a quarter of them makes an index four times cheaper to fill and to ask.
 */
function recorded(hash: number): number {
  const mixed = Math.imul(hash ^ (hash >>> 15), 0x2c1b3c6d);
  const spread = (mixed ^ (mixed >>> 12)) >>> 0;
  return spread % 4 === 0 ? spread >>> 2 : -1;
}

/**
 * Calls `visit` with the recorded form of each recorded run of `text`, in order, until it returns true: whether one
 * did. The one walk both indexes make, to count an item's runs and to ask a line's.
 */
export function someRecordedRun(text: string, visit: (run: number) => boolean): boolean {
  let hash = 0;
  for (let j = 0; j < text.length; j += 1) {
    hash = roll(hash, text, j);
    if (j < RUN - 1) continue;
    const r = recorded(hash);
    if (r >= 0 && visit(r)) return true;
  }
  return false;
}
