// What `prunelab merge` does, loaded only when that command runs (its definition is ../merge.ts).
import { createReadStream, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { tokenCounter } from '../../accounting/tokens.js';
import { RunRecord, Summary, type Manifest, type ModelCalls } from '../../artifacts/schema.js';
import { input, usage } from '../../errors.js';
import type { PointEconomics } from '../../economics/record.js';
import { joinedTotals, summarise, type RemovedBy } from '../../engine/run.js';
import { readShardRecord, type ShardRecord } from '../../engine/shard.js';
import { LAYOUT, readManifest, RunWriter } from '../../engine/write.js';
import { relativePath } from '../../fixture/canonical.js';
import type { Reader } from '../../behaviour/reader.js';
import type { ConditionInfo } from '../../policy/types.js';
import type { CallCharge } from '../../providers/telemetry.js';
import { parseTiming } from '../../timing/timing.js';
import { notices } from '../../messages.js';
import type { Values } from '../command.js';
import type { CliIO } from '../io.js';
import type { CommandContext } from '../command.js';
import type { FLAGS } from '../merge.js';

export const run = ({ args, positionals, io }: CommandContext<typeof FLAGS>) => merge(args, positionals, io);

interface Part {
  readonly dir: string;
  readonly manifest: Manifest;
  readonly record: ShardRecord;
  readonly run: RunRecord;
}

async function merge(flags: Values<typeof FLAGS>, positionals: readonly string[], io: CliIO): Promise<number> {
  const outDir = resolve(io.cwd, flags.out);
  if (existsSync(outDir) && readdirSync(outDir).length > 0)
    throw usage('PL_MERGE_OUT_EXISTS', relativePath(outDir, io.cwd));
  const parts = positionals
    .map((d) => readPart(resolve(io.cwd, d), io.cwd))
    .sort((a, b) => a.record.index - b.record.index);
  checkParts(parts, io.cwd);
  const first = parts[0]!;
  const infos = first.manifest.conditions.map(
    (c) => ({ name: c.name, layer: c.layer, rung: c.rung, version: c.version }) as ConditionInfo,
  );
  const writer = new RunWriter(outDir, infos, {
    exploratory: first.manifest.study.exploratory,
    exploratoryConditions: new Set(first.manifest.conditions.filter((c) => c.exploratory).map((c) => c.name)),
    bulk: () => false,
    decisionLog: first.manifest.decisionLog,
  });
  try {
    const summaries: Summary[] = [];
    for (const c of first.manifest.conditions) summaries.push(await mergeCondition(c.name, parts, writer));
    const calls = (role: string): ModelCalls =>
      parts.reduce(
        (n, p) => {
          const own = p.manifest.models.find((m) => m.role === role)?.calls;
          return { finished: n.finished + (own?.finished ?? 0), failed: n.failed + (own?.failed ?? 0) };
        },
        { finished: 0, failed: 0 },
      );
    const { conditions: _c, outputs: _o, ...fixed } = first.manifest;
    const { manifestSha256: _m, ...run } = first.run;
    writer.finish(summaries, {
      ...fixed,
      models: fixed.models.map((m) => (m.calls ? { ...m, calls: calls(m.role) } : m)),
      fixtures: parts.flatMap((p) => p.manifest.fixtures),
      run,
    });
  } catch (err) {
    writer.abort();
    throw err;
  }
  io.stdout(
    notices.shardsMerged(
      relativePath(outDir, io.cwd),
      parts.length,
      first.manifest.conditions.length,
      first.record.fixtures,
    ),
  );
  return 0;
}

function readPart(dir: string, cwd: string): Part {
  const where = relativePath(dir, cwd);
  const manifest = readManifest(dir);
  if (!manifest) throw input('PL_MERGE_BAD_SHARD', where, 'no readable manifest.json');
  if (manifest.incomplete)
    throw input(
      'PL_MERGE_BAD_SHARD',
      where,
      'an incomplete run (stopped by --max-cost-usd); finish it with --resume first',
    );
  const record = readShardRecord(dir);
  let run: RunRecord;
  try {
    run = RunRecord.parse(JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')));
  } catch {
    throw input('PL_MERGE_BAD_SHARD', where, 'no readable run.json');
  }
  return { dir, manifest, record, run };
}

/** Every shard of one run, each once, with the same inputs apart from their fixtures and call counts. */
function checkParts(parts: readonly Part[], cwd: string): void {
  const first = parts[0]!;
  const signature = (p: Part) =>
    JSON.stringify({
      ...p.manifest,
      fixtures: null,
      outputs: null,
      models: p.manifest.models.map(({ calls: _c, ...m }) => m),
      conditions: p.manifest.conditions,
    });
  parts.forEach((p, i) => {
    const bad = (problem: string) => input('PL_MERGE_BAD_SHARD', relativePath(p.dir, cwd), problem);
    if (p.record.count !== first.record.count || p.record.fixtures !== first.record.fixtures)
      throw bad(
        `shard ${p.record.index}/${p.record.count} of ${p.record.fixtures} fixtures, where the first is of ${first.record.count} shards and ${first.record.fixtures} fixtures`,
      );
    if (p.record.index !== i + 1) throw bad(`shard ${i + 1} of ${first.record.count} is missing or given twice`);
    if (p.manifest.decisionLog !== first.manifest.decisionLog)
      throw bad(
        `its run had --decision-log ${p.manifest.decisionLog}, the first shard's ${first.manifest.decisionLog}; run every shard with the same`,
      );
    if (signature(p) !== signature(first))
      throw bad('its run had other inputs (seed, timing, conditions, package, study or models) than the first shard');
  });
  if (parts.length !== first.record.count)
    throw input(
      'PL_MERGE_BAD_SHARD',
      relativePath(first.dir, cwd),
      `${parts.length} shards given, the run has ${first.record.count}`,
    );
  const fixtures = parts.reduce((n, p) => n + p.manifest.fixtures.length, 0);
  if (fixtures !== first.record.fixtures)
    throw input(
      'PL_MERGE_BAD_SHARD',
      relativePath(first.dir, cwd),
      `the shards hold ${fixtures} fixtures, the run has ${first.record.fixtures}`,
    );
}

/** A JSONL file's lines, decompressed when it is gzip; none when it is absent. */
async function* linesOf(path: string): AsyncGenerator<string> {
  if (!existsSync(path)) return;
  const stream = createReadStream(path);
  const lines = createInterface({
    input: path.endsWith('.gz') ? stream.pipe(createGunzip()) : stream,
    crlfDelay: Infinity,
  });
  for await (const line of lines) if (line !== '') yield line;
}

/** The fixture id a record or point line belongs to (both write it as their first field after `exploratory`). */
const fixtureOf = (line: string): string => (JSON.parse(line) as { fixture: string }).fixture;

async function mergeCondition(name: string, parts: readonly Part[], writer: RunWriter): Promise<Summary> {
  const perFixture: Summary['perFixture'] = [];
  const removed = new Map<string, RemovedBy>();
  const charges: CallCharge[] = [];
  const economics: (PointEconomics | undefined)[] = [];
  let head: Summary | undefined;
  for (const part of parts) {
    const dir = join(part.dir, name);
    const summary = Summary.parse(JSON.parse(readFileSync(join(dir, LAYOUT.summary), 'utf8')));
    head ??= summary;
    perFixture.push(...summary.perFixture);
    for (const r of summary.removedBy) {
      const key = `${r.step ?? 0}\u0000${r.rule}`;
      const entry = removed.get(key) ?? { rule: r.rule, step: r.step, items: 0, netTokensRemoved: 0 };
      entry.items += r.items;
      entry.netTokensRemoved += r.netTokensRemoved;
      removed.set(key, entry);
    }
    charges.push(...(part.record.charges[name] ?? []));
    const plain = (file: string) => (existsSync(join(dir, file)) ? readFileSync(join(dir, file), 'utf8') : '');
    writer.appendRendered(name, 'decisions', plain(LAYOUT.decisions));
    writer.appendRendered(name, 'points', plain(LAYOUT.points));
    writer.appendRendered(name, 'pointRows', plain(LAYOUT.pointRows).replace(/^[^\n]*\n/, ''));
    // Point economics in the run's fixture order, whichever file (plain or compressed) holds a fixture's points.
    const byFixture = new Map<string, (PointEconomics | undefined)[]>();
    for (const file of [LAYOUT.points, LAYOUT.bulkPoints]) {
      for await (const line of linesOf(join(dir, file))) {
        const p = JSON.parse(line) as { fixture: string; economics?: PointEconomics };
        byFixture.set(p.fixture, [...(byFixture.get(p.fixture) ?? []), p.economics]);
      }
    }
    for (const f of part.manifest.fixtures) economics.push(...(byFixture.get(f.id) ?? []));
    for (const [file, kind] of [
      [LAYOUT.bulkDecisions, 'bulkDecisions'],
      [LAYOUT.bulkPoints, 'bulkPoints'],
    ] as const) {
      // The run writes a compressed log one fixture at a time; so does the merge, to cut the same gzip members.
      let fixture: string | null = null;
      let chunk = '';
      for await (const line of linesOf(join(dir, file))) {
        const id = fixtureOf(line);
        if (id !== fixture && chunk !== '') {
          writer.appendRendered(name, kind, chunk);
          chunk = '';
        }
        fixture = id;
        chunk += `${line}\n`;
      }
      if (chunk !== '') writer.appendRendered(name, kind, chunk);
    }
  }
  const s = head!;
  const info = {
    name: s.condition,
    layer: s.layer,
    rung: s.rung,
    version: s.policyVersion,
    upperRisk: s.upperRisk,
    parameters: s.parameters,
    ...(s.sweepOf ? { sweepOf: s.sweepOf } : {}),
  } as ConditionInfo;
  // The summary's behaviour block names its reader; the merge judges nothing.
  const reader: Reader = {
    label: s.behaviour.reader,
    epochs: s.behaviour.epochs,
    temperature: s.behaviour.temperature,
    seeds: s.behaviour.seeds,
    judge: () => {
      throw new Error('internal: merge judges no probe');
    },
  };
  const options = {
    exploratory: s.exploratory,
    timing: parseTiming(s.timing),
    placeholders: s.placeholders,
    tokens: tokenCounter(),
  };
  return summarise(info, options, reader, joinedTotals({ perFixture, removedBy: removed, charges, economics }));
}
