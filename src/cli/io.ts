// What a command may touch of the outside world; the entry point passes the real one, tests pass their own.
import { recoverDebris } from '../files/atomic.js';
import { relativePath } from '../fixture/canonical.js';
import { notices } from '../messages.js';

export interface CliIO {
  readonly cwd: string;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Environment variables (API keys, base URLs); bin.ts passes the process's, tests their own. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * Where long commands report progress on stderr: a live bar when `tty`, else plain periodic lines. bin.ts sets it
   * for the process's stderr; without it (an in-process caller capturing the output) no progress is reported.
   */
  readonly progress?: { readonly tty: boolean; readonly columns: number };
}

/**
 * Clears what killed writers left in a folder a command is about to read or write (finishing a swap they had
 * committed), and says what it did on stderr.
 */
export function clearDebris(dir: string, io: CliIO): void {
  const r = recoverDebris(dir);
  if (r.finished.length + r.removed.length > 0)
    io.stderr(notices.debrisCleared(relativePath(dir, io.cwd), r.finished, r.removed));
}
