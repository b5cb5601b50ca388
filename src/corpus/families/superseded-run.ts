// Test runs superseded by later runs. Checked rerun: a failing run, the agent's edit to the code under test, and a
// rerun of the same command covering the same tests: the first run is superseded. Rerun after the prune point: the
// failure is still the current state and the fix needs it. Flaky rerun: the same command passes with no change in
// between, so the failing run is the only record of a race the flake report needs.
import type { TrajectoryBuilder } from '../builder.js';
import { ob, claims, NO_CLAIMS, type FamilyFactory } from '../family.js';
import { RUNNERS, summaryQuote, testRun, testSuite, type TestRun, type TestSuite } from '../payloads/tests.js';
import { NOUNS } from '../payloads/vocab.js';

export const supersededRun: FamilyFactory = (r, p, ctx) => {
  const variant = r.pick(['checked-rerun', 'rerun-after-point', 'flaky-rerun'] as const);
  const runner = r.pick(RUNNERS);
  let suite: TestSuite | undefined;
  let identity = '';
  let target = '';
  let failing: string[] = [];
  let run1: TestRun | undefined;
  let run2: TestRun | undefined;
  let first = { id: '', turn: 0 };
  let second = { id: '', turn: Number.POSITIVE_INFINITY };
  const fixedFile = `src/${r.pick(NOUNS)}/${r.pick(NOUNS)}.ts`;
  const size = r.int(6, 40);
  const doRun = (b: TrajectoryBuilder, fails: string[]) => {
    const run = testRun(r, suite!, fails, r.int(400, 90_000));
    const pair = b.call(
      {
        tool: 'run_tests',
        arguments: { cwd: target, command: run.command },
        content: `cd ${target} && ${run.command}`,
      },
      {
        content: run.content,
        covers: run.covers,
        source: { identity, version: 'UNKNOWN', mutable: true },
        ...(fails.length
          ? {
              status: {
                state: 'error' as const,
                errorType: 'NonZeroExit',
                message: `${runner}: ${run.summary}`,
                fields: { exitCode: String(run.exitCode), failed: String(fails.length) },
              },
            }
          : {}),
        ...(variant === 'flaky-rerun' ? { flags: { transientState: true } } : {}),
      },
    );
    return { run, id: pair.result, turn: b.turn };
  };
  // The generator applies the edit, so it knows the outcome for each source it names, and records it per effect.
  const edit = (b: TrajectoryBuilder) => {
    b.tool('edit_file', 'non-idempotent', 'replaces one string in a file');
    b.call(
      {
        tool: 'edit_file',
        arguments: { path: `${target}/${fixedFile}`, old: 'Math.round(', new: 'roundHalfEven(' },
        content: `edit_file ${target}/${fixedFile}\n-    return Math.round(amount * 100) / 100;\n+    return roundHalfEven(amount, 2);`,
        effects: [
          { source: `${ctx.repo}/${target}/${fixedFile}`, outcome: 'succeeded' },
          { source: identity, outcome: 'succeeded' },
        ],
      },
      { content: `Edited ${target}/${fixedFile}: 1 line changed` },
    );
  };
  return {
    family: 'superseded-run',
    variant,
    span: variant === 'rerun-after-point' ? 1 : 3,
    exercises: ['checked-supersession', 'same-tool-args-dedup', 'observation-masking', 'errored-input-residue'],
    open(b, at) {
      target = b.unique(() => `packages/${ctx.domain}-${r.pick(NOUNS)}`);
      identity = `workspace:${target}`;
      suite = testSuite(r, runner, target, size);
      const ids = suite.files.flatMap((f) => f.tests.map((t) => `${f.file} > ${t}`));
      failing = r.sample(ids, r.int(1, Math.min(3, ids.length)));
      b.tool('run_tests', 'read-mutable', 'runs a test command in a package');
      b.at(at.start);
      const one = doRun(b, failing);
      run1 = one.run;
      first = one;
      if (variant === 'rerun-after-point') return;
      if (variant === 'checked-rerun') {
        b.at(at.start + 1);
        edit(b);
      }
      b.at(at.start + 2);
      const two = doRun(b, []);
      run2 = two.run;
      second = two;
    },
    use(b) {
      if (variant === 'rerun-after-point') {
        edit(b);
        const two = doRun(b, []);
        run2 = two.run;
        second = two;
        return;
      }
      b.note(
        'model',
        'reasoning',
        variant === 'flaky-rerun'
          ? `Flake report for ${target}: first run "${run1!.summary}", rerun with no change "${run2!.summary}".`
          : `PR body: ${target} tests now report "${run2!.summary}".`,
      );
    },
    claimsAt(t, at) {
      if (t < first.turn || t >= at.needAt) return NO_CLAIMS;
      const probe = (answer: string) => ({
        question: `What did the ${target} test run report?`,
        expectedAnswer: answer,
      });
      if (variant === 'rerun-after-point') {
        const failure = run1!.failed[0]!;
        return claims({
          downstream: [
            ob(
              `ob-${p}-failing`,
              `The fix targets the tests that fail in ${target}.`,
              at.needAt,
              [first.id],
              [summaryQuote(run1!)],
              probe(run1!.summary),
            ),
          ],
          necessary: [first.id],
          rationale: `The failing run of ${target} is still the current state (the rerun comes later); the fix needs ${failure}.`,
        });
      }
      if (variant === 'flaky-rerun') {
        return claims({
          downstream: [
            ob(
              `ob-${p}-flake`,
              'The flake report quotes the failing run; nothing changed before the rerun, so no later run reproduces it.',
              at.needAt,
              [first.id],
              [summaryQuote(run1!)],
              probe(run1!.summary),
            ),
            ob(
              `ob-${p}-pass`,
              'The flake report quotes the passing rerun.',
              at.needAt,
              [second.id],
              [summaryQuote(run2!)],
              probe(run2!.summary),
            ),
          ],
          necessary: [first.id, second.id],
          rationale:
            'The rerun passed with no transition in between: the failing run is evidence of a race, not a superseded state.',
        });
      }
      return claims({
        downstream: [
          ob(
            `ob-${p}-pass`,
            'The PR quotes the passing run.',
            at.needAt,
            [second.id],
            [summaryQuote(run2!)],
            probe(run2!.summary),
          ),
        ],
        necessary: [second.id],
        rationale: "The failing run is superseded by the rerun after the agent's fix, which covers the same tests.",
      });
    },
  };
};
