// Runs in a worker thread of the CLI's process (bundled and evaluated there): starts the sandboxed child and relays
// messages both ways, so that the CLI's main thread can wait for an answer synchronously (the engine's `decide` is
// synchronous) while this thread's event loop does the asynchronous IPC.
import { spawn } from 'node:child_process';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { serialize } from 'node:v8';
import type { RelayMessage } from './protocol.js';

export interface RelayData {
  readonly flag: SharedArrayBuffer;
  readonly port: MessagePort;
  readonly args: readonly string[];
  readonly cwd: string;
  /** The bundled policy, sent as the child's first message. */
  readonly bundle: string;
}

const STDERR_TAIL = 2000;

const { flag, port, args, cwd, bundle } = workerData as RelayData;
const signal = new Int32Array(flag);
/** `m` is a message's bytes (v8 serialization), passed on as they came: the relay never decodes a view or an answer. */
const answer = (m: Uint8Array): void => {
  // Posted before the flag is raised, so the main thread finds the message whenever it sees the flag.
  port.postMessage(m);
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
};
// No environment: a policy has no use for the CLI's model keys or anything else the shell holds.
const child = spawn(process.execPath, args, {
  cwd,
  env: {},
  stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  serialization: 'advanced',
});
if (child.pid !== undefined) Atomics.store(signal, 1, child.pid);
let stderr = '';
child.stderr!.on('data', (chunk: Buffer) => {
  stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
});
const ended = (m: RelayMessage): void => answer(serialize(m));
child.on('message', (m: Uint8Array) => answer(m));
child.on('error', (err) => ended({ kind: 'exited', code: null, signal: null, stderr: err.message }));
child.on('exit', (code, sig) => ended({ kind: 'exited', code, signal: sig, stderr }));
child.send(bundle);
parentPort!.on('message', (m: Uint8Array | 'close') => {
  if (m === 'close') {
    child.removeAllListeners('exit');
    child.kill('SIGKILL');
    port.close();
    parentPort!.close();
    return;
  }
  child.send(m);
});
