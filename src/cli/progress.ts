// Progress of a long command on stderr, never on stdout and never with --json: a live bar (cli-progress) when
// stderr is a terminal, and a plain line every tenth of the work or every five seconds when it is not (a log or CI
// keeps a readable record instead of a stream of cursor codes). The engine only counts (its onProgress callback);
// everything printed is composed here and written through the CLI's io. A command made of child processes (npm run
// base-rate) reports a line per step instead (runSteps), its children's own progress passing through.
import { spawn } from 'node:child_process';
import cliProgress from 'cli-progress';
import { notices, type ProgressFigures } from '../messages.js';
import type { CliIO } from './io.js';

/** Counts, times, calls and spend: what each line or redraw reports. */
export type ProgressSnapshot = ProgressFigures;

export interface ProgressOptions {
  /** The command, as the line's first word. */
  readonly label: string;
  /** What is counted: "fixtures", "charts". */
  readonly unit: string;
  readonly total: number;
  readonly conditions: number;
  /** --json was given: print nothing extra. */
  readonly quiet: boolean;
  /** Model calls and spend so far, when the run has a model gateway. */
  readonly models?: () => { calls: number; spentUsd: number } | null;
  /** Milliseconds on a monotonic clock; tests pass their own. */
  readonly now?: () => number;
}

export interface Progress {
  update(done: number): void;
  stop(): void;
}

/** Plain lines at most this often, unless a tenth of the work was done since the last. */
export const PLAIN_INTERVAL_MS = 5000;
const PLAIN_STEPS = 10;

const SILENT: Progress = { update: () => undefined, stop: () => undefined };

export function startProgress(io: CliIO, o: ProgressOptions): Progress {
  if (o.quiet || o.total <= 0 || !io.progress) return SILENT;
  const now = o.now ?? (() => performance.now());
  const started = now();
  const snapshot = (done: number): ProgressSnapshot => {
    const elapsedMs = now() - started;
    const models = o.models?.() ?? null;
    return {
      done,
      total: o.total,
      conditions: o.conditions,
      elapsedMs,
      etaMs: done > 0 ? (elapsedMs * (o.total - done)) / done : null,
      calls: models?.calls ?? null,
      spentUsd: models?.spentUsd ?? null,
    };
  };
  return io.progress.tty ? liveBar(io, o, snapshot) : plainLines(io, o, snapshot, now);
}

function plainLines(
  io: CliIO,
  o: ProgressOptions,
  snapshot: (done: number) => ProgressSnapshot,
  now: () => number,
): Progress {
  let lastAt = now();
  let lastStep = 0;
  let lastDone = -1;
  const print = (done: number) => {
    io.stderr(notices.progressLine(o.label, o.unit, snapshot(done)));
    lastAt = now();
    lastDone = done;
  };
  let current = 0;
  return {
    update(done) {
      current = done;
      const step = Math.floor((done * PLAIN_STEPS) / o.total);
      if (step > lastStep || now() - lastAt >= PLAIN_INTERVAL_MS) {
        lastStep = step;
        print(done);
      }
    },
    stop() {
      if (lastDone !== current) print(current);
    },
  };
}

function liveBar(io: CliIO, o: ProgressOptions, snapshot: (done: number) => ProgressSnapshot): Progress {
  // cli-progress draws through a stream; this one hands the text (cursor codes included) to the CLI's stderr.
  const stream = {
    isTTY: true,
    columns: io.progress?.columns ?? 80,
    write(text: string, callback?: () => void) {
      io.stderr(text);
      callback?.();
      return true;
    },
    cursorTo(x: number, _y?: number, callback?: () => void) {
      io.stderr(`\x1b[${x + 1}G`);
      callback?.();
      return true;
    },
    clearLine(_dir: number, callback?: () => void) {
      io.stderr('\x1b[2K');
      callback?.();
      return true;
    },
    moveCursor(_dx: number, _dy: number, callback?: () => void) {
      callback?.();
      return true;
    },
    on: () => stream,
    removeListener: () => stream,
  };
  const bar = new cliProgress.SingleBar({
    stream: stream as unknown as NodeJS.WriteStream,
    barsize: 20,
    hideCursor: false,
    clearOnComplete: false,
    linewrap: false,
    format: (options, params) =>
      notices.progressBar(
        o.label,
        o.unit,
        snapshot(params.value),
        cliProgress.Format.BarFormat(params.progress, options),
      ),
  });
  bar.start(o.total, 0);
  let done = 0;
  return {
    update(n) {
      done = n;
      bar.update(n);
    },
    stop() {
      bar.update(done);
      bar.stop();
    },
  };
}

/**
 * Progress for work whose size the callee learns (an analysis knows its steps once it has loaded the results):
 * the line starts at the first report of (done, total).
 */
export function progressCallback(
  io: CliIO,
  o: Omit<ProgressOptions, 'total'>,
): { onProgress: (done: number, total: number) => void; stop: () => void } {
  let progress: Progress | undefined;
  return {
    onProgress(done, total) {
      progress ??= startProgress(io, { ...o, total });
      progress.update(done);
    },
    stop() {
      progress?.stop();
    },
  };
}

/** One child process of a multi-step command, run to completion before the next. */
export interface Step {
  /** What the step does, shown in its line: "experiment, share 0.60". */
  readonly what: string;
  readonly command: string;
  readonly args: readonly string[];
  /** Which exit statuses let the run go on; only 0 unless said (an audit exits 1 to report a leak). */
  readonly accepts?: (status: number | null) => boolean;
}

export interface StepOptions {
  /** The command, as each line's first word. */
  readonly label: string;
  /** --json was given: no step lines (the children's own stderr still passes). */
  readonly quiet: boolean;
  /** Milliseconds on a monotonic clock; tests pass their own. */
  readonly now?: () => number;
}

/** Every step ran (failed null), or the one whose exit status was not accepted, after which none ran. */
export type StepsOutcome = { readonly failed: null } | { readonly failed: Step; readonly status: number | null };

/**
 * Runs `steps` one after another, a line "label: step i/N (what), elapsed" on stderr as each starts and a last one
 * when all are done. A child's stderr (its own progress, its errors) passes through; its stdout is dropped, so the
 * command's stdout stays its own. On a terminal the child inherits stderr, so it draws its live bar there; elsewhere
 * its stderr is piped through the CLI's io, where it writes plain lines, being no terminal itself. Step lines are
 * plain in both cases: one a step is no stream to redraw.
 */
export async function runSteps(io: CliIO, o: StepOptions, steps: readonly Step[]): Promise<StepsOutcome> {
  const show = !o.quiet && io.progress !== undefined;
  const now = o.now ?? (() => performance.now());
  const started = now();
  for (const [i, step] of steps.entries()) {
    if (show) io.stderr(notices.stepLine(o.label, i + 1, steps.length, step.what, now() - started));
    const status = await runChild(io, step);
    if (!(step.accepts ?? ((s) => s === 0))(status)) return { failed: step, status };
  }
  if (show) io.stderr(notices.stepsDone(o.label, steps.length, now() - started));
  return { failed: null };
}

function runChild(io: CliIO, step: Step): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(step.command, [...step.args], {
      cwd: io.cwd,
      stdio: ['ignore', 'ignore', io.progress?.tty === true ? 'inherit' : 'pipe'],
    });
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => io.stderr(text));
    child.on('error', reject);
    // 'close' comes after the child's stdio has ended, so all its stderr has been passed on.
    child.on('close', (status) => resolve(status));
  });
}
