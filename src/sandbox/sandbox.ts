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
import { refusalOf, vetFolder, type OffLimits } from './folder.js';
import type { ModuleInfo, ThrownError } from './protocol.js';

export type { OffLimits };

export interface SandboxOptions {
  /** The module as the user named it, for messages. */
  readonly shown: string;
  readonly cwd: string;
  readonly offLimits: OffLimits;
  readonly timeoutMs: number;
}

// The child's only code on its command line: everything else arrives as one bundled module over IPC.
const BOOT = "process.once('message', (code) => import('data:text/javascript;base64,' + code));";

/** Node 22.13+ names the permission model --permission; Node 20 only knows the experimental flag. */
function permissionFlag(): string {
  return process.allowedNodeEnvironmentFlags.has('--permission') ? '--permission' : '--experimental-permission';
}

export class PolicySandbox {
  /** The first thing that went wrong in the child; later calls fail with it, and the CLI reports it. */
  fault: PrunelabError | undefined;

  private constructor(private readonly bridge: Bridge, readonly info: ModuleInfo, private readonly options: SandboxOptions, private readonly folder: string) {}

  /** Vets the module's folder, compiles the module, starts its process and waits for it to report its export. */
  static async start(file: string, options: SandboxOptions): Promise<PolicySandbox> {
    const folder = realpathSync(dirname(file));
    vetFolder(options.shown, folder, options.offLimits);
    const bundled = await bundlePolicy(file);
    if (!bundled.ok) throw input('PL_POLICY_IMPORT', options.shown, bundled.detail);
    // Granting the folder and a wildcard under it together aborts Node 20 (an empty radix-tree prefix); the folder
    // with a trailing separator grants it and everything below it, and nothing beside it.
    const args = [permissionFlag(), `--allow-fs-read=${folder}${sep}`, '--no-warnings', '-e', BOOT];
    const bridge = new Bridge(await relayCode(), { args, cwd: folder, bundle: Buffer.from(bundled.code).toString('base64') });
    const first = bridge.receive(options.timeoutMs);
    if (first.kind === 'ready') return new PolicySandbox(bridge, first.info, options, folder);
    bridge.close();
    if (first.kind === 'load-failed') {
      throw deniedError(first.error, options, folder) ?? input('PL_POLICY_IMPORT', options.shown, firstLine(first.error.message));
    }
    throw endedError(first, options, sandboxWords.whileLoading());
  }

  /** The policy's answer for one prune point, exactly as its `decide` returned it (the engine checks it). */
  decide(view: PolicyView): unknown {
    if (this.fault) throw this.fault;
    this.bridge.send({ kind: 'decide', view });
    const reply = this.bridge.receive(this.options.timeoutMs);
    if (reply.kind === 'decided') return reply.out;
    if (reply.kind === 'threw') {
      const denied = deniedError(reply.error, this.options, this.folder);
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

function firstLine(text: string | undefined): string {
  return (text ?? 'undefined').split('\n')[0] ?? '';
}

/** A refused access, told as what the policy tried and why it is refused; null for any other failure. */
/** `folder`: the child's working directory, against which it reports a relative path it was refused. */
function deniedError(error: ThrownError, options: SandboxOptions, folder: string): PrunelabError | null {
  if (error.code !== 'ERR_ACCESS_DENIED') return null;
  const absolute = resolve(folder, error.resource ?? '');
  const resource = error.resource ? relativePath(absolute, options.cwd) : '';
  if (error.permission === 'FileSystemRead') {
    return input('PL_POLICY_SANDBOX_DENIED', options.shown, sandboxWords.attempt.read(resource), sandboxWords.why[refusalOf(absolute, options.offLimits)]);
  }
  const attempt = error.permission === 'FileSystemWrite' ? sandboxWords.attempt.write(resource)
    : error.permission === 'ChildProcess' ? sandboxWords.attempt.spawn()
      : error.permission === 'WorkerThreads' ? sandboxWords.attempt.thread()
        : sandboxWords.attempt.other(error.permission ?? firstLine(error.message));
  return input('PL_POLICY_SANDBOX_DENIED', options.shown, attempt, sandboxWords.why.effect);
}

function endedError(got: Received, options: SandboxOptions, where: string): PrunelabError {
  if (got.kind !== 'timeout' && got.kind !== 'exited') throw new Error(`internal: the sandboxed policy sent "${got.kind}" out of turn`);
  if (got.kind === 'timeout') return failure('PL_POLICY_TIMEOUT', options.shown, options.timeoutMs / 1000, where);
  const how = got.signal ? sandboxWords.signal(got.signal) : sandboxWords.exitCode(got.code);
  return failure('PL_POLICY_EXITED', options.shown, how, where, got.stderr.trim().split('\n').slice(-3).join(' | '));
}
