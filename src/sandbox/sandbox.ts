// Runs a user's policy module in a child process under Node's permission model: it may read its own folder and
// nothing else (no oracle, fixture or result), and may not write, start processes or threads, or load native code.
// The engine talks to it as to any Condition: one synchronous round trip per prune point.
import { realpathSync } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import { failure, input, type PrunelabError } from '../errors.js';
import { relativePath } from '../fixture/canonical.js';
import type { PolicyView } from '../fixture/view.js';
import { sandboxWords } from '../messages.js';
import { Bridge, type Received } from './bridge.js';
import { bundlePolicy, relayCode } from './bundle.js';
import { inside, LIBRARIES, refusalOf, vetFolder, type OffLimits } from './folder.js';
import { CLOSE_NETWORK } from './network.js';
import type { ModuleInfo, ParentMessage, ThrownError } from './protocol.js';

export type { OffLimits };

export interface SandboxOptions {
  /** The module as the user named it, for messages. */
  readonly shown: string;
  readonly cwd: string;
  readonly offLimits: OffLimits;
  readonly timeoutMs: number;
}

// The child's only code on its command line: the network closed, then everything else arrives as one bundled module
// over IPC.
const BOOT = `${CLOSE_NETWORK}\nprocess.once('message', (code) => import('data:text/javascript;base64,' + code));`;

/** Node 22.13+ names the permission model --permission; Node 20 only knows the experimental flag. */
function permissionFlag(): string {
  return process.allowedNodeEnvironmentFlags.has('--permission') ? '--permission' : '--experimental-permission';
}

export class PolicySandbox {
  /** The first thing that went wrong in the child; later calls fail with it, and the CLI reports it. */
  fault: PrunelabError | undefined;

  private constructor(
    private readonly bridge: Bridge,
    readonly info: ModuleInfo,
    private readonly options: SandboxOptions,
  ) {}

  /** Vets the module's folder, compiles the module, starts its process and waits for it to report its export. */
  static async start(file: string, options: SandboxOptions): Promise<PolicySandbox> {
    const folder = realpathSync(dirname(file));
    vetFolder(options.shown, folder, options.offLimits);
    const bundled = await bundlePolicy(file, (path) => importable(path, folder, options.offLimits));
    if (!bundled.ok && 'refused' in bundled) {
      const why = refusalOf(bundled.refused, options.offLimits);
      throw input(
        'PL_POLICY_SANDBOX_DENIED',
        options.shown,
        sandboxWords.attempt.import(relativePath(bundled.refused, options.cwd)),
        sandboxWords.why[why],
      );
    }
    if (!bundled.ok) throw input('PL_POLICY_IMPORT', options.shown, bundled.detail);
    // Granting the folder and a wildcard under it together aborts Node 20 (an empty radix-tree prefix); the folder
    // with a trailing separator grants it and everything below it, and nothing beside it.
    const args = [permissionFlag(), `--allow-fs-read=${folder}${sep}`, '--no-warnings', '-e', BOOT];
    // The CLI's working directory, so that a relative path means what it would mean in-process.
    const bridge = new Bridge(await relayCode(), {
      args,
      cwd: options.cwd,
      bundle: Buffer.from(bundled.code).toString('base64'),
    });
    const first = bridge.receive(options.timeoutMs);
    if (first.kind === 'ready') return new PolicySandbox(bridge, first.info, options);
    bridge.close();
    if (first.kind === 'load-failed') {
      throw (
        deniedError(first.error, options) ?? input('PL_POLICY_IMPORT', options.shown, firstLine(first.error.message))
      );
    }
    throw endedError(first, options, sandboxWords.whileLoading());
  }

  /** The policy's answer for one prune point, exactly as its `decide` returned it (the engine checks it). */
  decide(view: PolicyView): unknown {
    return this.call({ kind: 'decide', view }, view);
  }

  /** A Mechanism's findings on `candidates` at one prune point, exactly as its `assess` returned them. */
  assess(view: PolicyView, candidates: readonly string[]): unknown {
    return this.call({ kind: 'assess', view, candidates }, view);
  }

  /** A --pruner's output for one prune point's rendered messages, exactly as it returned (or resolved) it. */
  prune(messages: readonly unknown[], options: Readonly<Record<string, unknown>>, view: PolicyView): unknown {
    return this.call({ kind: 'prune', messages, options }, view);
  }

  private call(message: ParentMessage, view: PolicyView): unknown {
    if (this.fault) throw this.fault;
    this.bridge.send(message);
    const reply = this.bridge.receive(this.options.timeoutMs);
    if (reply.kind === 'decided') return reply.out;
    if (reply.kind === 'threw') {
      const denied = deniedError(reply.error, this.options);
      if (!denied) throw Object.assign(new Error(), { message: reply.error.message });
      this.fault = denied;
    } else {
      this.fault = endedError(reply, this.options, sandboxWords.atPoint(view.fixtureId, view.prunePoint.id));
    }
    this.close();
    throw this.fault;
  }

  close(): void {
    this.bridge.close();
  }
}

/**
 * What a policy may import (compiled in by the bundler, which runs outside the sandbox): its own folder, prunelab's
 * library code (the view helpers; not the corpus generator or the oracle's code) and installed packages; never an
 * oracle, fixture or result, wherever it lies.
 */
function importable(path: string, folder: string, off: OffLimits): boolean {
  const real = realpathSync(path);
  if (refusalOf(real, off) !== 'outside') return false;
  return inside(real, folder) || LIBRARIES.some((l) => inside(real, l)) || real.split(sep).includes('node_modules');
}

function firstLine(text: string | undefined): string {
  return (text ?? 'undefined').split('\n')[0] ?? '';
}

/** A refused access, told as what the policy tried and why it is refused; null for any other failure. */
function deniedError(error: ThrownError, options: SandboxOptions): PrunelabError | null {
  // Node refuses native addons under the permission model with a code of their own.
  if (error.code === 'ERR_DLOPEN_DISABLED')
    return input('PL_POLICY_SANDBOX_DENIED', options.shown, sandboxWords.attempt.addon(), sandboxWords.why.effect);
  if (error.code !== 'ERR_ACCESS_DENIED') return null;
  // A relative path is reported as the policy gave it: relative to the child's working directory, the CLI's.
  const absolute = resolve(options.cwd, error.resource ?? '');
  const resource = error.resource ? relativePath(absolute, options.cwd) : '';
  if (error.permission === 'FileSystemRead') {
    return input(
      'PL_POLICY_SANDBOX_DENIED',
      options.shown,
      sandboxWords.attempt.read(resource),
      sandboxWords.why[refusalOf(absolute, options.offLimits)],
    );
  }
  const attempt =
    error.permission === 'FileSystemWrite'
      ? sandboxWords.attempt.write(resource)
      : error.permission === 'ChildProcess'
        ? sandboxWords.attempt.spawn()
        : error.permission === 'WorkerThreads'
          ? sandboxWords.attempt.thread()
          : error.permission === 'Network'
            ? sandboxWords.attempt.network(error.resource ?? '')
            : sandboxWords.attempt.other(error.permission ?? firstLine(error.message));
  return input('PL_POLICY_SANDBOX_DENIED', options.shown, attempt, sandboxWords.why.effect);
}

function endedError(got: Received, options: SandboxOptions, where: string): PrunelabError {
  if (got.kind !== 'timeout' && got.kind !== 'exited')
    throw new Error(`internal: the sandboxed policy sent "${got.kind}" out of turn`);
  if (got.kind === 'timeout') return failure('PL_POLICY_TIMEOUT', options.shown, options.timeoutMs / 1000, where);
  const how = got.signal ? sandboxWords.signal(got.signal) : sandboxWords.exitCode(got.code);
  return failure('PL_POLICY_EXITED', options.shown, how, where, got.stderr.trim().split('\n').slice(-3).join(' | '));
}
