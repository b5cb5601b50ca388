// One blocking worker serves the process: a thread handed a line by the thread that owns the worker (shareLines,
// adoptLines) is answered by that worker, and starts none of its own; it may ask before the owner ever did. The
// deadline still fires, for the owner and on a shared line, and a late answer is not taken for the next request's.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type MessagePort, Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { BlockingWorker, shareLines, type SharedLines, workerCode } from '../../src/pruners/blocking.js';

/**
 * A blocking worker that answers each request with its own thread id, speaking the protocol langchain-worker.ts
 * speaks: its owner's line and the lines handed out before it started in workerData, later ones on parentPort. A
 * request of 'hang' is never answered; { late: ms } is answered after ms.
 */
const ECHO = `
const { parentPort, workerData, threadId } = require('node:worker_threads');
function serve({ flag, port, asked }) {
  const signal = new Int32Array(flag);
  const answer = ({ id, request }) => {
    if (request === 'hang') return;
    const send = () => {
      port.postMessage({ id, reply: { ok: true, value: { threadId, request } } });
      Atomics.store(signal, 0, 1);
      Atomics.notify(signal, 0);
    };
    if (request && request.late) setTimeout(send, request.late);
    else send();
  };
  asked.forEach(answer);
  port.on('message', answer);
}
serve({ flag: workerData.flag, port: workerData.port, asked: [] });
workerData.lines.forEach(serve);
parentPort.on('message', serve);
`;

const owners: BlockingWorker[] = [];
afterEach(() => {
  for (const o of owners.splice(0)) o.close();
});

function owner(key: string, timeoutMs = 20_000): { worker: BlockingWorker; starts: () => number } {
  let starts = 0;
  const worker = new BlockingWorker(
    key,
    () => {
      starts += 1;
      return ECHO;
    },
    {},
    timeoutMs,
  );
  owners.push(worker);
  return { worker, starts: () => starts };
}

/**
 * What a call made on another thread (booted with tsx's loader, as a study worker is) over the lines it was handed
 * answers. Its own BlockingWorker would start a worker of its own from code that throws, so an answer can only have
 * come over the line.
 */
function callFromThread(
  lines: SharedLines,
  transfer: readonly MessagePort[],
  key: string,
  request: unknown,
  timeoutMs: number,
) {
  const blocking = new URL('../../src/pruners/blocking.ts', import.meta.url).href;
  const api = import.meta.resolve('tsx/esm/api');
  const boot = `
    import { parentPort, workerData } from 'node:worker_threads';
    import { register } from ${JSON.stringify(api)};
    register();
    const { adoptLines, BlockingWorker } = await import(${JSON.stringify(blocking)});
    adoptLines(workerData.lines);
    const own = () => { throw new Error('this thread started a blocking worker of its own'); };
    const worker = new BlockingWorker(workerData.key, own, {}, workerData.timeoutMs);
    const answers = [];
    for (const request of workerData.requests) {
      try { answers.push({ value: worker.call(request) }); } catch (err) { answers.push({ error: err.message }); }
    }
    parentPort.postMessage(answers);
  `;
  const requests = Array.isArray(request) ? request : [request];
  const thread = new Worker(new URL(`data:text/javascript,${encodeURIComponent(boot)}`), {
    workerData: { lines, key, requests, timeoutMs },
    transferList: [...transfer],
  });
  return new Promise<{ value?: { threadId: number; request: unknown }; error?: string }[]>((resolve, reject) => {
    thread.once('message', (answers) => {
      resolve(answers);
      void thread.terminate();
    });
    thread.once('error', reject);
  });
}

describe('one blocking worker per process', () => {
  it("answers another thread's calls from the owner's worker, started once, whichever thread asks first", async () => {
    const { worker, starts } = owner('echo-first');
    // The other thread asks before this one ever called: its request starts the worker here.
    const shared = shareLines();
    const [fromThread] = await callFromThread(shared.lines, shared.transfer, 'echo-first', 'from a thread', 20_000);
    expect(fromThread?.value?.request).toBe('from a thread');
    const here = worker.call('from the owner') as { threadId: number; request: unknown };
    expect(here.request).toBe('from the owner');
    expect(fromThread?.value?.threadId).toBe(here.threadId);
    // A line handed out once the worker runs reaches the same worker.
    const later = shareLines();
    const [again] = await callFromThread(later.lines, later.transfer, 'echo-first', 'later', 20_000);
    expect(again?.value).toEqual({ threadId: here.threadId, request: 'later' });
    expect(starts()).toBe(1);
  });

  it('still fires the deadline, on the owner and on a shared line, and drops a late answer', async () => {
    const { worker } = owner('echo-hang', 1000);
    const shared = shareLines();
    // The second request is answered 300 ms after its deadline, while the third is waited for; the worker's timers
    // fire in order, so the late answer always comes first, and must not be taken for the third's.
    const answers = await callFromThread(
      shared.lines,
      shared.transfer,
      'echo-hang',
      ['hang', { late: 1300 }, { late: 400, n: 3 }],
      1000,
    );
    expect(answers[0]?.error).toBe('no answer within 1 s');
    expect(answers[1]?.error).toBe('no answer within 1 s');
    expect(answers[2]?.value?.request).toEqual({ late: 400, n: 3 });
    expect(() => worker.call('hang')).toThrow('no answer within 1 s');
    // The owner's timed-out worker was stopped; the next call starts a fresh one.
    expect((worker.call('after') as { request: unknown }).request).toBe('after');
  });
});

describe('what a blocking worker is started from', () => {
  it('a JavaScript module as the file itself (no compiling), TypeScript compiled to CommonJS', () => {
    const dir = mkdtempSync(join(tmpdir(), 'prunelab-blocking-'));
    const js = pathToFileURL(join(dir, 'echo.js'));
    expect(workerCode(js)).toBe(js);
    const ts = pathToFileURL(join(dir, 'echo.ts'));
    writeFileSync(
      ts,
      "import { workerData } from 'node:worker_threads';\nconst n: number = workerData.n;\nexport { n };\n",
    );
    const code = workerCode(ts);
    expect(typeof code).toBe('string');
    expect(code).toContain('require("node:worker_threads")');
    expect(code).not.toContain(': number');
  });

  it('a worker started from a JavaScript module file answers as an eval worker does', () => {
    const dir = mkdtempSync(join(tmpdir(), 'prunelab-blocking-'));
    // The same protocol as ECHO, as an ES module file (the launcher's compiled copy and the built package are ESM).
    const file = join(dir, 'echo.mjs');
    writeFileSync(
      file,
      ECHO.replace(
        "const { parentPort, workerData, threadId } = require('node:worker_threads');",
        "import { parentPort, workerData, threadId } from 'node:worker_threads';",
      ),
    );
    const worker = new BlockingWorker('echo-file', () => workerCode(pathToFileURL(file)), {}, 20_000);
    owners.push(worker);
    const answer = worker.call('hello') as { threadId: number; request: unknown };
    expect(answer.request).toBe('hello');
    expect(answer.threadId).toBeGreaterThan(0);
  });
});
