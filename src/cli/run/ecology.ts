// What `prunelab ecology` does, loaded only when that command runs (its definition is ../ecology.ts).
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { kindOf, readRegularFile } from '../../fixture/json.js';
import { dirname, join, relative, resolve } from 'node:path';
import { tokenCounter, type TokenCounter } from '../../accounting/tokens.js';
import { failure, input, usage } from '../../errors.js';
import { byCodeUnit, relativePath, sha256 } from '../../fixture/canonical.js';
import { isStaging, type LoadedFixture, type OnSkip } from '../../fixture/load.js';
import { loadFixture } from '../../load/fixtures.js';
import type { Fixture } from '../../fixture/schema.js';
import { startProgress } from '../progress.js';
import { runStudy } from '../../engine/run.js';
import { writeAtomic } from '../../engine/write.js';
import { allConditions } from '../../policy/registry.js';
import { renderChart } from '../../report/render-chart.js';
import { totalEcology, traceEcology } from '../../traces/ecology.js';
import {
  conditionsCsv,
  conditionsMarkdown,
  ecologyChartSpec,
  ecologyCsv,
  ecologyMarkdown,
} from '../../traces/ecology-report.js';
import { fixtureText, importFile, importTraces } from '../../traces/import.js';
import { SecretNumbering } from '../../traces/redact.js';
import type { Values } from '../command.js';
import type { CliIO } from '../io.js';
import { notices } from '../../messages.js';
import type { CommandContext } from '../command.js';
import { REAL_TRACES_DIR, REAL_OUT_DIR, type FLAGS } from '../ecology.js';

export const run = ({ args, positionals, io }: CommandContext<typeof FLAGS>) => ecology(args, positionals, io);

async function ecology(flags: Values<typeof FLAGS>, positionals: readonly string[], io: CliIO): Promise<number> {
  if (flags.real) return real(io, flags.check === true);
  if (flags.check) throw usage('PL_USAGE_CHECK_NEEDS_REAL');
  if (positionals.length === 0) throw usage('PL_USAGE_ECOLOGY_INPUTS');
  const tokens = tokenCounter();
  // One numbering for every session this run imports, as one import would give them.
  const numbering = new SecretNumbering();
  const skipped = (file: string, why: string) => io.stderr(notices.inputSkipped(relativePath(file, io.cwd), why));
  const fixtures: Fixture[] = [];
  for (const p of positionals)
    fixtures.push(...(await inputs(resolve(io.cwd, p), p, io.cwd, tokens, numbering, skipped)));
  const files = await ecologyFiles(fixtures, tokens);
  if (flags.out !== undefined) {
    const out = resolve(io.cwd, flags.out);
    for (const [name, data] of files) writeAtomic(join(out, name), data);
    io.stdout(notices.ecologyWritten(files.get('ecology.md') as string, relativePath(out, io.cwd), [...files.keys()]));
  } else {
    io.stdout(files.get('ecology.md') as string);
  }
  return 0;
}

/** Fixtures from a path: a folder of fixtures, a fixture file, or a recorded session to import in memory. */
async function inputs(
  path: string,
  shownAs: string,
  root: string,
  tokens: TokenCounter,
  numbering: SecretNumbering,
  onSkip: OnSkip,
): Promise<Fixture[]> {
  if (!existsSync(path)) throw input('PL_FIXTURE_PATH_MISSING', shownAs);
  const kind = kindOf(path);
  if (kind !== undefined && kind !== 'a folder') throw input('PL_FIXTURE_PATH_SPECIAL', shownAs, kind);
  const files = kind === undefined ? [path] : sessionFiles(path, onSkip);
  if (files.length === 0) throw input('PL_FIXTURE_NONE', shownAs);
  const out: Fixture[] = [];
  for (const file of files) {
    const shown = files.length === 1 ? shownAs : relativePath(file, root);
    // A FIFO or device would hang the read: refused by name before anything reads it.
    const bytes = readRegularFile(file, shown);
    const looksLikeFixture = (() => {
      try {
        const v = JSON.parse(bytes.toString('utf8')) as unknown;
        return !!v && typeof v === 'object' && 'schemaVersion' in v;
      } catch {
        return false;
      }
    })();
    if (looksLikeFixture) out.push(loadFixture(file, root).fixture);
    else for (const t of await importFile(file, shown, { redact: true, tokens, numbering })) out.push(t.fixture);
  }
  return out;
}

type Files = Map<string, string | Buffer>;

async function ecologyFiles(fixtures: readonly Fixture[], tokens: TokenCounter): Promise<Files> {
  const rows = fixtures.map((f) => traceEcology(f, tokens));
  const total = totalEcology(rows);
  const spec = ecologyChartSpec(rows, total);
  const chart = await renderChart(spec);
  return new Map<string, string | Buffer>([
    ['ecology.md', ecologyMarkdown(rows, total)],
    ['ecology.csv', ecologyCsv(rows, total)],
    ['ecology.vl.json', `${JSON.stringify(spec, null, 2)}\n`],
    ['ecology.svg', chart.svg],
    ['ecology.png', chart.png],
  ]);
}

/** Fixture and session files under a folder (not READMEs, licences, schemas or oracles), sorted. */
function sessionFiles(dir: string, onSkip: OnSkip = () => undefined): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => byCodeUnit(a.name, b.name))) {
      const full = join(d, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'oracles' && e.name !== 'node_modules' && !isStaging(e.name)) walk(full);
      } else if (
        /\.(traj|json|jsonl)$/.test(e.name) &&
        !['schema.json', 'MANIFEST.json', 'package.json'].includes(e.name)
      ) {
        // Only regular files (a FIFO would hang the read); links to folders are not followed, so none can loop.
        const kind = e.isFile() ? undefined : kindOf(full);
        if (kind === undefined) out.push(full);
        else onSkip(full, `it is ${kind}, not a regular file`);
      }
    }
  };
  walk(dir);
  return out;
}

async function real(io: CliIO, check: boolean): Promise<number> {
  const src = resolve(io.cwd, REAL_TRACES_DIR);
  const out = resolve(io.cwd, REAL_OUT_DIR);
  if (!existsSync(src) || !statSync(src).isDirectory()) throw input('PL_FIXTURE_PATH_MISSING', REAL_TRACES_DIR);
  const tokens = tokenCounter();
  const sessions = sessionFiles(src);
  const shown = new Map(sessions.map((p) => [relativePath(p, io.cwd), p]));
  const traces = await importTraces(
    [...shown].map(([shownAs, path]) => ({ path, shownAs })),
    { redact: true, tokens },
  );
  const files: Files = new Map();
  const loaded: LoadedFixture[] = [];
  const licences: { from: string; to: string }[] = [];
  // A file may hold several sessions: each trace finds its file by the name it was imported under.
  traces.forEach((t) => {
    const session = shown.get(t.file)!;
    const folder = relative(src, dirname(session)).split('\\').join('/');
    const name = `fixtures/${folder ? `${folder}/` : ''}${t.fixture.id}.json`;
    const text = fixtureText(t.fixture);
    files.set(name, text);
    loaded.push({
      file: `${REAL_OUT_DIR}/${name}`,
      sha256: sha256(text),
      fixture: t.fixture,
      oracleFile: null,
      oracleSha256: null,
      oracle: null,
    });
    const licence = join(dirname(session), 'LICENSE');
    if (existsSync(licence)) licences.push({ from: licence, to: `fixtures/${folder ? `${folder}/` : ''}LICENSE` });
  });
  for (const l of licences) files.set(l.to, readFileSync(l.from, 'utf8'));
  const progress = startProgress(io, {
    label: 'ecology',
    unit: 'fixtures',
    total: loaded.length,
    conditions: allConditions().length,
    quiet: false,
  });
  let runs: ReturnType<typeof runStudy>;
  try {
    runs = runStudy({
      conditions: allConditions(),
      fixtures: loaded,
      timing: { kind: 'immediate' },
      placeholders: 'marker',
      tokens,
      onProgress: (done) => progress.update(done),
    });
  } finally {
    progress.stop();
  }
  const summaries = runs.map((r) => r.summary);
  files.set('conditions.md', conditionsMarkdown(summaries));
  files.set('conditions.csv', conditionsCsv(summaries));
  for (const [k, v] of await ecologyFiles(
    traces.map((t) => t.fixture),
    tokens,
  ))
    files.set(k, v);
  if (check) {
    const differs = [...files]
      .filter(([name, data]) => {
        const path = join(out, name);
        return !existsSync(path) || !readFileSync(path).equals(Buffer.isBuffer(data) ? data : Buffer.from(data));
      })
      .map(([name]) => name);
    const extra = existsSync(out) ? listFiles(out).filter((f) => !files.has(f)) : [];
    if (differs.length + extra.length > 0)
      throw failure('PL_CHECK_DIFFERS', [...differs, ...extra.map((f) => `${f} (not produced by this code)`)]);
    io.stdout(notices.ecologyCheckPassed(REAL_OUT_DIR, files.size, traces.length, runs.length));
    return 0;
  }
  for (const [name, data] of files) writeAtomic(join(out, name), data);
  // The folder holds exactly what this code produces, so --check can say so.
  for (const stale of listFiles(out).filter((f) => !files.has(f))) rmSync(join(out, stale));
  io.stdout(
    notices.ecologyRealWritten(
      files.get('ecology.md') as string,
      REAL_OUT_DIR,
      files.size,
      traces.length,
      REAL_TRACES_DIR,
    ),
  );
  return 0;
}

function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const full = join(d, e.name);
      if (e.isDirectory()) walk(full);
      else out.push(relative(dir, full).split('\\').join('/'));
    }
  };
  walk(dir);
  return out.sort(byCodeUnit);
}
