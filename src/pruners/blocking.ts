// Runs an asynchronous package function so that a synchronous caller can wait for it. A condition's `decide` is
// synchronous and pure, and some packages only publish an async API (LangChain's trimMessages returns a Promise even
// when nothing it awaits does I/O). The package runs in a worker thread of this process; the caller posts a request
// and blocks on a shared flag (Atomics.wait) until the answer is there, with a deadline. Nothing but the request
// crosses, so the answer is a function of the request, as a pure decide needs.
import { readFileSync } from 'node:fs';
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { transformSync } from 'esbuild';

export type Reply = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string };

/** What every blocking worker is started with, beside its own data. */
export interface WorkerLine {
  readonly flag: SharedArrayBuffer;
  readonly port: MessagePort;
}

/** A worker module written in TypeScript, compiled to the CommonJS an `eval` worker runs (it imports only node:). */
export function workerCode(file: URL): string {
  return transformSync(readFileSync(file, 'utf8'), { loader: 'ts', format: 'cjs', target: 'node20' }).code;
}

export class BlockingWorker {
  private line: { worker: Worker; port: MessagePort; signal: Int32Array } | undefined;

  constructor(
    private readonly code: () => string,
    private readonly data: Readonly<Record<string, unknown>>,
    private readonly timeoutMs: number,
  ) {}

  /** The worker's answer to `request`; throws its error, or on the deadline. */
  call(request: unknown): unknown {
    const line = this.start();
    Atomics.store(line.signal, 0, 0);
    line.port.postMessage(request);
    const deadline = performance.now() + this.timeoutMs;
    for (;;) {
      const got = receiveMessageOnPort(line.port);
      if (got) {
        const reply = got.message as Reply;
        if (reply.ok) return reply.value;
        throw new Error(reply.error);
      }
      const left = deadline - performance.now();
      if (left <= 0) {
        this.close();
        throw new Error(`no answer within ${this.timeoutMs / 1000} s`);
      }
      Atomics.wait(line.signal, 0, 0, left);
      Atomics.store(line.signal, 0, 0);
    }
  }

  close(): void {
    if (!this.line) return;
    void this.line.worker.terminate();
    this.line.port.close();
    this.line = undefined;
  }

  private start() {
    if (this.line) return this.line;
    const flag = new SharedArrayBuffer(4);
    const { port1, port2 } = new MessageChannel();
    const worker = new Worker(this.code(), {
      eval: true,
      workerData: { ...this.data, flag, port: port2 } satisfies WorkerLine & Record<string, unknown>,
      transferList: [port2],
    });
    // The study ends when its conditions are done, whatever worker a condition left waiting for requests.
    worker.unref();
    this.line = { worker, port: port1, signal: new Int32Array(flag) };
    return this.line;
  }
}
