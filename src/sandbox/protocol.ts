// The messages that cross between the CLI and a sandboxed policy's process. Everything that crosses is copied by
// structured clone, so a policy's answer reaches the engine as the same data an in-process call would return.
import type { PolicyView } from '../fixture/view.js';

/** What a policy's failure carried: enough to tell a refused access from an ordinary throw. */
export interface ThrownError {
  /** The thrown value's `message`, untouched (undefined when it had none), as an in-process caller would read it. */
  readonly message: string | undefined;
  readonly code?: string;
  /** For a refused access: the permission (FileSystemRead, ChildProcess, ...) and what it was asked for. */
  readonly permission?: string;
  readonly resource?: string;
}

/** The module's default export without its functions, and which of `decide` (a Condition) and `assess` (a Mechanism) it has. */
export interface ModuleInfo {
  readonly exported: Record<string, unknown> | null;
  readonly exportType: string;
  readonly decideIsFunction: boolean;
  readonly assessIsFunction: boolean;
  /** The default export is itself a function: a --pruner's `(messages, options) => messages`. */
  readonly isFunction: boolean;
}

export type ParentMessage =
  | { readonly kind: 'decide'; readonly view: PolicyView }
  | { readonly kind: 'assess'; readonly view: PolicyView; readonly candidates: readonly string[] }
  /** A --pruner's call: the rendered messages and its options; its answer may be a Promise, awaited in the child. */
  | {
      readonly kind: 'prune';
      readonly messages: readonly unknown[];
      readonly options: Readonly<Record<string, unknown>>;
    };

export type ChildMessage =
  | { readonly kind: 'ready'; readonly info: ModuleInfo }
  | { readonly kind: 'load-failed'; readonly error: ThrownError }
  | { readonly kind: 'decided'; readonly out: unknown }
  | { readonly kind: 'threw'; readonly error: ThrownError };

/** What the relay adds: the child is gone (it exited, was killed or never started). */
export type RelayMessage =
  | ChildMessage
  | { readonly kind: 'exited'; readonly code: number | null; readonly signal: string | null; readonly stderr: string };

export function describeThrown(err: unknown): ThrownError {
  if (err === null || typeof err !== 'object') return { message: undefined };
  const e = err as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const message = e['message'];
  return {
    message: typeof message === 'string' ? message : message === undefined ? undefined : String(message),
    ...(text(e['code']) ? { code: text(e['code'])! } : {}),
    ...(text(e['permission']) ? { permission: text(e['permission'])! } : {}),
    ...(text(e['resource']) !== undefined ? { resource: text(e['resource'])! } : {}),
  };
}
