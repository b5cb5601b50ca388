// The chapter's viewer scene, worked on a canonical fixture: accumulation, then removal of superseded output while
// the record of what it established (the passing runs) and the constraint record (protected by a visible
// obligation) stay, then the same ladder later in the session. The fixture is superseded-test-run: two packages'
// failing test runs superseded by checked reruns, one rerun that only looks like it supersedes, and a task
// statement whose API constraint a visible obligation protects. A constructed illustration, not a validated pass.
import type { FixturePage } from './model.js';

export const SCENE_FIXTURE = 'superseded-test-run';

/** The condition that removes nothing: the accumulation snapshot. */
export const SCENE_BASELINE = 'raw';

export interface Snapshot {
  readonly title: string;
  readonly caption: string;
  readonly condition: string;
  readonly point: string;
}

export interface Scene {
  readonly snapshots: readonly Snapshot[];
}

/** The three snapshots over `proposed` (the study's proposed ladder), or why they cannot be drawn from these results. */
export function sceneOf(pages: readonly FixturePage[], proposed: string | null): Scene | { readonly missing: string } {
  const page = pages.find((p) => p.id === SCENE_FIXTURE);
  if (!page) return { missing: `fixture ${SCENE_FIXTURE} is not in the site (select it with --fixture)` };
  if (!proposed) return { missing: 'the study names no proposed condition' };
  for (const name of [SCENE_BASELINE, proposed])
    if (!page.conditions.some((c) => c.name === name))
      return { missing: `condition ${name} is not in the site (run it, or select it with --condition)` };
  const [first, last] = [page.points[0]!, page.points[page.points.length - 1]!];
  return {
    snapshots: [
      {
        title: 'Accumulation',
        caption: `everything in context at ${first.id} (turn ${first.turn}), nothing removed (${SCENE_BASELINE})`,
        condition: SCENE_BASELINE,
        point: first.id,
      },
      {
        title: 'Removal',
        caption: `${proposed} at the same point: what left the context, what stands in its place, what is protected`,
        condition: proposed,
        point: first.id,
      },
      {
        title: 'Later',
        caption: `${proposed} at ${last.id} (turn ${last.turn}), once more work has closed`,
        condition: proposed,
        point: last.id,
      },
    ],
  };
}
