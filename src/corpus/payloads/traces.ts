// Stack traces as Python, Java and Node print them.
import type { Rng } from '../rng.js';
import { camel, NOUNS, pascal, snake, VERBS } from './vocab.js';

export const TRACE_LANGUAGES = ['python', 'java', 'node'] as const;
export type TraceLanguage = (typeof TRACE_LANGUAGES)[number];

export interface Trace {
  readonly content: string;
  readonly errorType: string;
  readonly message: string;
  readonly top: string;
}

export function stackTrace(r: Rng, language: TraceLanguage, domain: string, depth: number): Trace {
  const frames = Array.from({ length: Math.max(2, depth) }, () => ({
    noun: r.pick(NOUNS),
    verb: r.pick(VERBS),
    line: r.int(5, 800),
  }));
  switch (language) {
    case 'python': {
      const errorType = r.pick(['KeyError', 'ValueError', 'TimeoutError', 'AttributeError']);
      const message =
        errorType === 'KeyError'
          ? `'${snake(r.pick(NOUNS), 'id')}'`
          : `${r.pick(NOUNS)} ${r.pick(['is not valid', 'timed out after 30s', 'has no attribute'])}`;
      const lines = ['Traceback (most recent call last):'];
      for (const f of frames)
        lines.push(
          `  File "/app/${domain}/${f.noun}/${snake(f.verb, f.noun)}.py", line ${f.line}, in ${snake(f.verb, f.noun)}`,
          `    return ${snake(f.verb)}(${f.noun}, timeout=${r.int(1, 30)})`,
        );
      lines.push(`${errorType}: ${message}`);
      return {
        content: lines.join('\n'),
        errorType,
        message,
        top: `line ${frames[0]!.line}, in ${snake(frames[0]!.verb, frames[0]!.noun)}`,
      };
    }
    case 'java': {
      const errorType = r.pick([
        'java.lang.NullPointerException',
        'java.lang.IllegalStateException',
        'java.sql.SQLTimeoutException',
      ]);
      const message = `${r.pick(['Cannot invoke', 'Connection is not available', 'Unexpected state'])} "${camel(r.pick(VERBS), r.pick(NOUNS))}()"`;
      const lines = [`Exception in thread "http-nio-8080-exec-${r.int(1, 40)}" ${errorType}: ${message}`];
      for (const f of frames)
        lines.push(
          `\tat com.acme.${domain}.${f.noun}.${pascal(f.noun)}Service.${camel(f.verb, f.noun)}(${pascal(f.noun)}Service.java:${f.line})`,
        );
      lines.push(`\tat java.base/java.lang.Thread.run(Thread.java:${r.int(800, 1600)})`);
      return {
        content: lines.join('\n'),
        errorType,
        message,
        top: `${pascal(frames[0]!.noun)}Service.java:${frames[0]!.line}`,
      };
    }
    case 'node': {
      const errorType = r.pick(['TypeError', 'RangeError', 'Error']);
      const message = `${r.pick(["Cannot read properties of undefined (reading '", "Invalid time value for '", "ECONNRESET while reading '"])}${camel(r.pick(NOUNS), 'Id')}')`;
      const lines = [`${errorType}: ${message}`];
      for (const f of frames)
        lines.push(
          `    at ${camel(f.verb, f.noun)} (/app/packages/${domain}/dist/${f.noun}/${camel(f.verb, f.noun)}.js:${f.line}:${r.int(5, 60)})`,
        );
      lines.push(
        `    at process.processTicksAndRejections (node:internal/process/task_queues:${r.int(90, 105)}:${r.int(5, 9)})`,
      );
      return {
        content: lines.join('\n'),
        errorType,
        message,
        top: `${camel(frames[0]!.verb, frames[0]!.noun)}.js:${frames[0]!.line}`,
      };
    }
  }
}
