// Typed errors with stable codes. Input and usage problems exit 2, failures while running exit 1; only the CLI's
// outermost entry turns them into an exit code.
import { messages, type MessageCode } from './messages.js';

type Args<C extends MessageCode> = Parameters<(typeof messages)[C]>;

export class PrunelabError extends Error {
  readonly exitCode: 1 | 2 = 1;
  constructor(
    readonly code: MessageCode,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** A bad command line: unknown flag, condition or command, or a malformed value. */
export class UsageError extends PrunelabError {
  override readonly exitCode = 2;
}

/** A fixture, oracle or path the user gave that cannot be used. */
export class InputError extends PrunelabError {
  override readonly exitCode = 2;
}

/** Something failed while running: a policy broke its contract, a write failed, a check found differences. */
export class RunError extends PrunelabError {
  override readonly exitCode = 1;
}

export function usage<C extends MessageCode>(code: C, ...args: Args<C>): UsageError {
  return new UsageError(code, format(code, args));
}

export function input<C extends MessageCode>(code: C, ...args: Args<C>): InputError {
  return new InputError(code, format(code, args));
}

export function failure<C extends MessageCode>(code: C, ...args: Args<C>): RunError {
  return new RunError(code, format(code, args));
}

function format<C extends MessageCode>(code: C, args: Args<C>): string {
  const render = messages[code] as (...a: Args<C>) => string;
  return render(...args);
}
