// Test-runner output as vitest, jest, pytest, cargo test and go test print it, with the test ids a runtime would
// parse out as coverage and the summary line an obligation can quote.
import { drawFresh } from '../fresh.js';
import type { Rng } from '../rng.js';
import { camel, NOUNS, VERBS, snake } from './vocab.js';

export const RUNNERS = ['vitest', 'jest', 'pytest', 'cargo', 'go'] as const;
export type Runner = (typeof RUNNERS)[number];

export interface TestSuite {
  readonly runner: Runner;
  /** The package or directory the runner is pointed at. */
  readonly target: string;
  readonly files: readonly { readonly file: string; readonly tests: readonly string[] }[];
  /** The runner's version, printed in its banner: the same for every run of one suite. */
  readonly version: string;
}

export interface TestRun {
  readonly content: string;
  /** Test ids, `file > name`, the way the runtime records coverage. */
  readonly covers: string[];
  readonly summary: string;
  readonly failed: string[];
  readonly exitCode: number;
  readonly command: string;
}

function testName(r: Rng): string {
  return `${r.pick(['rejects', 'accepts', 'keeps', 'returns', 'retries', 'expires', 'settles', 'splits', 'rounds', 'reverses'])} ${r.pick(['an empty', 'a stale', 'a partial', 'a duplicate', 'the oldest', 'every', 'a cancelled'])} ${r.pick(NOUNS)}${r.chance(0.5) ? ` ${r.pick(['after cutoff', 'across a month boundary', 'in UTC', 'under load', 'on retry', 'per tenant'])}` : ''}`;
}

/**
 * Redraws of a file or test name before it is numbered. Generous, so that a suite whose redraws used to find a fresh
 * name still finds the same one (the committed corpus keeps its bytes); only a pool that is used up gets numbers.
 */
const SUITE_TRIES = 1000;

export function testSuite(r: Rng, runner: Runner, target: string, size: number): TestSuite {
  const files: { file: string; tests: string[] }[] = [];
  let remaining = size;
  const names = new Set<string>();
  // Each pass adds one file of at least one test, so the loop ends after at most `size` passes.
  while (remaining > 0) {
    const file = drawFresh(
      () => {
        const noun = r.pick(NOUNS);
        const verb = r.pick(VERBS);
        return runner === 'pytest'
          ? `tests/test_${snake(verb, noun)}.py`
          : runner === 'go'
            ? `./internal/${noun}`
            : runner === 'cargo'
              ? `${snake(noun, verb)}::tests`
              : `src/${noun}/${camel(verb, noun)}.test.ts`;
      },
      names,
      SUITE_TRIES,
    );
    names.add(file);
    const n = Math.min(remaining, r.int(2, 9));
    const tests = new Set<string>();
    const test = () =>
      runner === 'go'
        ? `Test${camel(r.pick(VERBS), r.pick(NOUNS), r.pick(NOUNS)).replace(/^./, (c) => c.toUpperCase())}`
        : runner === 'pytest' || runner === 'cargo'
          ? snake(...testName(r).split(' '))
          : testName(r);
    while (tests.size < n) tests.add(drawFresh(test, tests, SUITE_TRIES));
    files.push({ file, tests: [...tests] });
    remaining -= n;
  }
  return { runner, target, files, version: `${r.int(1, 3)}.${r.int(0, 6)}.${r.int(0, 9)}` };
}

export function testCommand(suite: TestSuite): string {
  switch (suite.runner) {
    case 'vitest':
      return 'npx vitest run';
    case 'jest':
      return 'npx jest --ci';
    case 'pytest':
      return 'python -m pytest -q';
    case 'cargo':
      return 'cargo test --workspace';
    case 'go':
      return 'go test ./...';
  }
}

/** One run of the suite with the given tests failing (ids as in `covers`), and the assertion each failure printed. */
export function testRun(r: Rng, suite: TestSuite, failing: readonly string[], durationMs: number): TestRun {
  const covers = suite.files.flatMap((f) => f.tests.map((t) => `${f.file} > ${t}`));
  const failed = covers.filter((c) => failing.includes(c));
  const total = covers.length;
  const passed = total - failed.length;
  const lines: string[] = [];
  const assertion = () => {
    const a = r.int(100, 9999);
    return `expected ${a} to be ${a + r.pick([-1, 1, 100])} // Object.is equality`;
  };
  switch (suite.runner) {
    case 'vitest':
    case 'jest': {
      lines.push(suite.runner === 'vitest' ? ` RUN  v${suite.version} /workspace/${suite.target}` : '');
      for (const f of suite.files) {
        const bad = f.tests.filter((t) => failed.includes(`${f.file} > ${t}`));
        lines.push(
          ` ${bad.length ? '❯' : '✓'} ${f.file} (${f.tests.length} tests${bad.length ? ` | ${bad.length} failed` : ''}) ${r.int(3, 900)}ms`,
        );
        for (const t of bad) lines.push(`   × ${t} ${r.int(1, 80)}ms`);
      }
      for (const id of failed) {
        const [file, name] = id.split(' > ');
        lines.push(
          '',
          ` FAIL  ${file} > ${name}`,
          `AssertionError: ${assertion()}`,
          '',
          ` ❯ ${file}:${r.int(10, 400)}:${r.int(5, 40)}`,
        );
      }
      lines.push(
        '',
        ` Test Files  ${suite.files.length - new Set(failed.map((id) => id.split(' > ')[0])).size} passed${failed.length ? ` | ${new Set(failed.map((id) => id.split(' > ')[0])).size} failed` : ''} (${suite.files.length})`,
      );
      const summary = failed.length
        ? `Tests  ${failed.length} failed | ${passed} passed (${total})`
        : `Tests  ${total} passed (${total})`;
      lines.push(`      ${summary}`, `   Duration  ${(durationMs / 1000).toFixed(2)}s`);
      return {
        content: lines.join('\n').replace(/^\n/, ''),
        covers,
        summary,
        failed,
        exitCode: failed.length ? 1 : 0,
        command: testCommand(suite),
      };
    }
    case 'pytest': {
      for (const f of suite.files) {
        const marks = f.tests.map((t) => (failed.includes(`${f.file} > ${t}`) ? 'F' : '.')).join('');
        lines.push(
          `${f.file} ${marks}${' '.repeat(Math.max(1, 40 - f.file.length - marks.length))}[${String(r.int(1, 100)).padStart(3)}%]`,
        );
      }
      if (failed.length) {
        lines.push('', '=================================== FAILURES ===================================');
        for (const id of failed) {
          const [file, name] = id.split(' > ');
          lines.push(
            `_________________________________ ${name} _________________________________`,
            '',
            `    def ${name}():`,
            `>       assert result.total == ${r.int(100, 999)}`,
            `E       AssertionError: assert ${r.int(100, 999)} == ${r.int(100, 999)}`,
            '',
            `${file}:${r.int(10, 300)}: AssertionError`,
          );
        }
        lines.push('=========================== short test summary info ============================');
        for (const id of failed) lines.push(`FAILED ${id.replace(' > ', '::')}`);
      }
      const summary = failed.length
        ? `${failed.length} failed, ${passed} passed in ${(durationMs / 1000).toFixed(2)}s`
        : `${total} passed in ${(durationMs / 1000).toFixed(2)}s`;
      lines.push(summary);
      return {
        content: lines.join('\n'),
        covers,
        summary,
        failed,
        exitCode: failed.length ? 1 : 0,
        command: testCommand(suite),
      };
    }
    case 'cargo': {
      lines.push(
        `   Compiling ${suite.target} v${suite.version} (/workspace/${suite.target})`,
        `    Finished \`test\` profile [unoptimized + debuginfo] target(s) in ${r.int(2, 90)}.${r.int(10, 99)}s`,
        `     Running unittests src/lib.rs (target/debug/deps/${suite.target.replace(/-/g, '_')}-${r.hex(16)})`,
        '',
        `running ${total} tests`,
      );
      for (const id of covers)
        lines.push(`test ${id.replace(' > ', '::')} ... ${failed.includes(id) ? 'FAILED' : 'ok'}`);
      for (const id of failed)
        lines.push(
          '',
          `---- ${id.replace(' > ', '::')} stdout ----`,
          `thread '${id.replace(' > ', '::')}' panicked at src/lib.rs:${r.int(10, 500)}:${r.int(5, 30)}:`,
          `assertion \`left == right\` failed\n  left: ${r.int(1, 99)}\n right: ${r.int(100, 199)}`,
        );
      const summary = `test result: ${failed.length ? 'FAILED' : 'ok'}. ${passed} passed; ${failed.length} failed; 0 ignored; 0 measured; 0 filtered out; finished in ${(durationMs / 1000).toFixed(2)}s`;
      lines.push('', summary);
      return {
        content: lines.join('\n'),
        covers,
        summary,
        failed,
        exitCode: failed.length ? 101 : 0,
        command: testCommand(suite),
      };
    }
    case 'go': {
      // go test prints no totals: the summary an obligation quotes is the first failure, or the last package line.
      let summary = '';
      for (const f of suite.files) {
        const bad = f.tests.filter((t) => failed.includes(`${f.file} > ${t}`));
        for (const t of bad) {
          const head = `--- FAIL: ${t} (0.${r.int(10, 99)}s)`;
          if (!summary) summary = head;
          lines.push(
            head,
            `    ${t.toLowerCase()}_test.go:${r.int(10, 200)}: got ${r.int(1, 99)}, want ${r.int(100, 199)}`,
          );
        }
        lines.push(
          bad.length
            ? `FAIL\t${f.file}\t${r.int(0, 9)}.${r.int(100, 999)}s`
            : `ok  \t${f.file}\t${r.int(0, 9)}.${r.int(100, 999)}s`,
        );
      }
      if (failed.length) lines.push('FAIL');
      else summary = lines[lines.length - 1]!;
      return {
        content: lines.join('\n'),
        covers,
        summary,
        failed,
        exitCode: failed.length ? 1 : 0,
        command: testCommand(suite),
      };
    }
  }
}

/**
 * The run's summary with the line after it (the duration, for runners whose summary line has none): what a report
 * quotes to name this run rather than any run with the same counts. A bare "Tests  11 passed (11)" is held by
 * every run with those counts, so no one run would be needed for it.
 */
export function summaryQuote(run: TestRun): string {
  const at = run.content.indexOf(run.summary);
  if (at < 0) return run.summary;
  const end = run.content.indexOf('\n', at + run.summary.length + 1);
  return run.content.slice(at, end < 0 ? undefined : end);
}
