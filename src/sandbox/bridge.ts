// A synchronous line to the sandboxed child. The engine calls `decide` synchronously, and a child process answers
// asynchronously; a relay worker thread does the IPC while the main thread blocks on a shared flag (Atomics.wait)
// with a deadline, so a policy that never answers costs the deadline, never a hang.
import { MessageChannel, Worker, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { deserialize, serialize } from 'node:v8';
import type { ParentMessage, RelayMessage } from './protocol.js';
import type { RelayData } from './relay.js';

export type Received = RelayMessage | { readonly kind: 'timeout' };

export class Bridge {
  /** [0]: an answer is waiting; [1]: the child's pid, written by the relay once it has started the child. */
  private readonly flag = new SharedArrayBuffer(8);
  private readonly signal = new Int32Array(this.flag);
  private readonly port: MessagePort;
  private readonly worker: Worker;
  private closed = false;
  private ended = false;

  /** `relay` is the bundled code of relay.ts; the child is started as `node ...args` in `cwd`. */
  constructor(relay: string, spawn: Omit<RelayData, 'flag' | 'port'>) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    const data: RelayData = { ...spawn, flag: this.flag, port: port2 };
    this.worker = new Worker(relay, {
      eval: true,
      workerData: data,
      transferList: [port2],
      env: {},
      stdout: true,
      stderr: true,
    });
    // Neither the worker nor the child may keep the CLI alive once it is done with them.
    this.worker.unref();
  }

  /**
   * Messages cross as v8-serialized bytes, encoded here and decoded in the child: the relay passes bytes on, so a
   * view is serialized once and deserialized once per round trip instead of being cloned at every hop.
   */
  send(message: ParentMessage): void {
    if (!this.closed) this.worker.postMessage(serialize(message));
  }

  /** The next message from the child, or `timeout` when none came within `ms`. */
  receive(ms: number): Received {
    const deadline = performance.now() + ms;
    for (;;) {
      Atomics.store(this.signal, 0, 0);
      const got = receiveMessageOnPort(this.port);
      if (got) return this.seen(deserialize(got.message as Uint8Array) as RelayMessage);
      const left = deadline - performance.now();
      if (left <= 0 || Atomics.wait(this.signal, 0, 0, left) === 'timed-out') {
        const late = receiveMessageOnPort(this.port);
        return late ? this.seen(deserialize(late.message as Uint8Array) as RelayMessage) : { kind: 'timeout' };
      }
    }
  }

  private seen(m: RelayMessage): RelayMessage {
    if (m.kind === 'exited') this.ended = true;
    return m;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.worker.postMessage('close');
    // Killed from here as well: a policy spinning in a loop must not outlive a CLI that exits before the relay
    // thread gets to its close message.
    const pid = Atomics.load(this.signal, 1);
    if (pid > 0 && !this.ended) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    this.port.close();
  }
}
