// Runs inside the sandboxed process, bundled together with the user's policy module: loads the module, reports what
// it exports, then answers one `decide` request per prune point. It holds no state between requests but the module.
import { deserialize, serialize } from 'node:v8';
import { deepFreeze } from '../fixture/freeze.js';
import { describeThrown, type ChildMessage, type ModuleInfo, type ParentMessage } from './protocol.js';

/** Sent as v8-serialized bytes, which the relay passes on undecoded and the CLI decodes (bridge.ts). */
function send(message: ChildMessage): void {
  let bytes: Buffer;
  try {
    bytes = serialize(message);
  } catch (err) {
    // An answer that cannot be copied (a function, a symbol) is the policy's failure, reported like a throw.
    bytes = serialize({ kind: 'threw', error: describeThrown(err) } satisfies ChildMessage);
  }
  process.send!(bytes);
}

function infoOf(exported: unknown): ModuleInfo {
  const none = { exported: null, decideIsFunction: false, assessIsFunction: false } as const;
  if (typeof exported === 'function') return { ...none, exportType: 'function', isFunction: true };
  if (!exported || typeof exported !== 'object') return { ...none, exportType: typeof exported, isFunction: false };
  const { decide, assess, ...rest } = exported as Record<string, unknown>;
  // Only data crosses to the CLI: a helper function beside `decide` or `assess` is the policy's own business.
  const data = Object.fromEntries(Object.entries(rest).filter(([, value]) => copyable(value)));
  return {
    exported: data,
    exportType: 'object',
    decideIsFunction: typeof decide === 'function',
    assessIsFunction: typeof assess === 'function',
    isFunction: false,
  };
}

function copyable(value: unknown): boolean {
  try {
    structuredClone(value);
    return true;
  } catch {
    return false;
  }
}

export function serve(load: () => Promise<{ default?: unknown }>): void {
  // This is the sandboxed process's own entry, not the CLI's: when the CLI goes, so does it, whatever timers the
  // policy left running.
  process.on('disconnect', () => process.exit(0));
  load().then(
    (mod) => {
      const policy = mod.default as
        | { decide: (view: unknown) => unknown; assess: (view: unknown, candidates: readonly string[]) => unknown }
        | undefined;
      send({ kind: 'ready', info: infoOf(policy) });
      process.on('message', (bytes: Uint8Array) => {
        const m = deserialize(bytes) as ParentMessage;
        if (m.kind === 'prune') {
          // A pruner may answer with a Promise (LangChain's trimMessages does): the child awaits it, the CLI waits.
          const pruner = policy as unknown as (messages: unknown, options: unknown) => unknown;
          Promise.resolve()
            .then(() => pruner(m.messages, m.options))
            .then(
              (out) => send({ kind: 'decided', out }),
              (err: unknown) => send({ kind: 'threw', error: describeThrown(err) }),
            );
          return;
        }
        let out: unknown;
        try {
          // Frozen as the engine freezes the view it hands an in-process policy: a write throws the same way.
          out =
            m.kind === 'assess'
              ? policy!.assess(deepFreeze(m.view), Object.freeze([...m.candidates]))
              : policy!.decide(deepFreeze(m.view));
        } catch (err) {
          send({ kind: 'threw', error: describeThrown(err) });
          return;
        }
        send({ kind: 'decided', out });
      });
    },
    (err: unknown) => send({ kind: 'load-failed', error: describeThrown(err) }),
  );
}
