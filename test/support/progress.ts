// A progress reporter on a captured io, driven by a clock the test moves by hand, so its lines do not depend on
// how fast the machine is.
import type { CliIO } from '../../src/cli/io.js';
import { type Progress, type ProgressOptions, startProgress } from '../../src/cli/progress.js';
import { type Captured, capture } from './io.js';

export const NOT_A_TTY = { tty: false, columns: 80 } as const;

/** `startProgress` for an experiment over fixtures unless `o` says otherwise; `tick` moves the clock on. */
export function clockedProgress(
  progress: CliIO['progress'],
  o: Pick<ProgressOptions, 'total' | 'conditions'> & Partial<ProgressOptions>,
): Captured & { readonly p: Progress; tick(ms: number): void } {
  const c = capture(progress ? { progress } : {});
  let clock = 0;
  const p = startProgress(c.io, { label: 'experiment', unit: 'fixtures', quiet: false, now: () => clock, ...o });
  return {
    ...c,
    p,
    tick(ms) {
      clock += ms;
    },
  };
}
