// Runs an asynchronous package function so that a synchronous caller can wait for it. A condition's `decide` is
// synchronous and pure, and some packages only publish an async API (LangChain's trimMessages returns a Promise even
// when nothing it awaits does I/O). The package runs in a worker thread of this process; the caller posts a request
// and blocks on a shared flag (Atomics.wait) until the answer is there, with a deadline. Nothing but the request
// crosses, so the answer is a function of the request, as a pure decide needs.
//
// One such worker serves the whole process: each one loads its package into an isolate of its own (tens of MB), and a
// parallel study runs the same conditions on several threads. The thread that owns it (the main thread) hands every
// other thread a line of its own, a port and a flag (shareLines, adoptLines); the worker answers on whichever line
// asked. The owner starts it on the first request from any thread, so a run that never calls it never loads it.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';

export type Reply = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string };

/**
 * A request as it crosses, numbered on its line: after a deadline the late answer to the request given up on is
 * still on its way, and must not be taken for the next request's.
 */
export interface Asked {
  readonly id: number;
  readonly request: unknown;
}

export interface Answered {
  readonly id: number;
  readonly reply: Reply;
}

/** One thread's line to a blocking worker: the caller's end of a port, and the flag the worker raises on answering. */
export interface WorkerLine {
  readonly flag: SharedArrayBuffer;
  readonly port: MessagePort;
}

/** The worker's end of a line, with what its thread asked before the worker was running (answered first). */
export interface ServedLine extends WorkerLine {
  readonly asked: readonly Asked[];
}

/**
 * What every blocking worker is started with, beside its own data: its owner's line and the lines of other threads
 * that were handed out before it started. Lines handed out later come as ServedLine messages on its parentPort.
 */
export interface WorkerStart extends WorkerLine {
  readonly lines: readonly ServedLine[];
}

/** The lines a thread is handed to its parent's blocking workers, by key. */
export type SharedLines = Readonly<Record<string, WorkerLine>>;

/**
 * What a worker module is started from: the module itself when it is JavaScript already (the launcher's compiled copy,
 * the built package), else its TypeScript compiled to the CommonJS an `eval` worker runs (it imports only node:).
 * esbuild is loaded only for the second: its synchronous API keeps a thread of its own for the rest of the process
 * (measured over the full study: about 50 MB of peak and 2 s of CPU).
 */
export function workerCode(file: URL): string | URL {
  if (/\.[cm]?js$/.test(file.pathname)) return file;
  const { transformSync } = createRequire(import.meta.url)('esbuild') as typeof import('esbuild');
  return transformSync(readFileSync(file, 'utf8'), { loader: 'ts', format: 'cjs', target: 'node20' }).code;
}

/** This thread's blocking workers by key: those a thread started here can hand lines to. */
const owners = new Map<string, BlockingWorker>();
/** Lines this thread was handed to its parent's workers, by key: used instead of starting one here. */
let adopted: SharedLines = {};

/**
 * A line to each of this thread's blocking workers for another thread, with the ports to transfer to it; called by
 * the thread that owns them (a thread that adopted lines hands none on). No worker is started for it: a worker
 * starts when some thread first calls it.
 */
export function shareLines(): { readonly lines: SharedLines; readonly transfer: readonly MessagePort[] } {
  const lines: Record<string, WorkerLine> = {};
  for (const [key, owner] of owners) lines[key] = owner.share();
  return { lines, transfer: Object.values(lines).map((l) => l.port) };
}

/** Makes this thread's blocking workers call over the lines its parent handed it instead of starting their own. */
export function adoptLines(lines: SharedLines): void {
  adopted = lines;
}

interface Line {
  readonly port: MessagePort;
  readonly signal: Int32Array;
  /** The worker when this thread owns it; absent on an adopted line. */
  readonly worker?: Worker;
}

/** A line handed out before the worker ran: its port waits on this thread for the first request. */
interface Dormant {
  readonly flag: SharedArrayBuffer;
  readonly port: MessagePort;
  readonly asked: Asked[];
}

export class BlockingWorker {
  private line: Line | undefined;
  private dormant: Dormant[] = [];
  private lastId = 0;

  /** `key` names the worker across threads: a thread that adopted a line under it calls over that line. */
  constructor(
    private readonly key: string,
    private readonly code: () => string | URL,
    private readonly data: Readonly<Record<string, unknown>>,
    private readonly timeoutMs: number,
  ) {
    owners.set(key, this);
  }

  /** The worker's answer to `request`; throws its error, or on the deadline. */
  call(request: unknown): unknown {
    const line = this.connect();
    const id = ++this.lastId;
    Atomics.store(line.signal, 0, 0);
    line.port.postMessage({ id, request } satisfies Asked);
    const deadline = performance.now() + this.timeoutMs;
    for (;;) {
      const got = receiveMessageOnPort(line.port);
      if (got) {
        const { id: of, reply } = got.message as Answered;
        if (of !== id) continue;
        if (reply.ok) return reply.value;
        throw new Error(reply.error);
      }
      const left = deadline - performance.now();
      if (left <= 0) {
        // A worker this thread owns is stopped, and the next call starts a fresh one; an adopted line stays, since
        // the worker is its owner's to stop.
        this.close();
        throw new Error(`no answer within ${this.timeoutMs / 1000} s`);
      }
      Atomics.wait(line.signal, 0, 0, left);
      Atomics.store(line.signal, 0, 0);
    }
  }

  /** Stops the worker if this thread owns it; the lines it served end with it. */
  close(): void {
    if (!this.line?.worker) return;
    void this.line.worker.terminate();
    this.line.port.close();
    this.line = undefined;
  }

  /** A line for another thread (shareLines). */
  share(): WorkerLine {
    const flag = new SharedArrayBuffer(4);
    const { port1, port2 } = new MessageChannel();
    const worker = this.line?.worker;
    if (worker) {
      worker.postMessage({ flag, port: port2, asked: [] } satisfies ServedLine, [port2]);
      return { flag, port: port1 };
    }
    const dormant: Dormant = { flag, port: port2, asked: [] };
    // The other thread's first request starts the worker here, and goes to it with the line.
    port2.on('message', (asked: Asked) => {
      dormant.asked.push(asked);
      try {
        this.connect();
      } catch (err) {
        // The worker could not start: the asking thread gets the error, as a caller here would.
        const reply: Reply = { ok: false, error: err instanceof Error ? err.message : String(err) };
        port2.postMessage({ id: asked.id, reply } satisfies Answered);
        const signal = new Int32Array(flag);
        Atomics.store(signal, 0, 1);
        Atomics.notify(signal, 0);
      }
    });
    port2.once('close', () => {
      this.dormant = this.dormant.filter((d) => d !== dormant);
    });
    // Waiting for a request that may never come must not keep this thread's event loop alive.
    port2.unref();
    this.dormant.push(dormant);
    return { flag, port: port1 };
  }

  private connect(): Line {
    if (this.line) return this.line;
    const lent = adopted[this.key];
    if (lent) {
      this.line = { port: lent.port, signal: new Int32Array(lent.flag) };
      return this.line;
    }
    // The code first: if it cannot be had, the lines handed out stay where they are.
    const code = this.code();
    const flag = new SharedArrayBuffer(4);
    const { port1, port2 } = new MessageChannel();
    const lines = this.dormant.splice(0).map(({ flag, port, asked }): ServedLine => {
      port.removeAllListeners();
      return { flag, port, asked };
    });
    const worker = new Worker(code, {
      eval: typeof code === 'string',
      workerData: { ...this.data, flag, port: port2, lines } satisfies WorkerStart & Record<string, unknown>,
      transferList: [port2, ...lines.map((l) => l.port)],
    });
    // The study ends when its conditions are done, whatever worker a condition left waiting for requests.
    worker.unref();
    this.line = { worker, port: port1, signal: new Int32Array(flag) };
    return this.line;
  }
}
