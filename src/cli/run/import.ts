// What `prunelab import` does, loaded only when that command runs (its definition is ../import.ts).
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tokenCounter } from '../../accounting/tokens.js';
import { usage } from '../../errors.js';
import { relativePath } from '../../fixture/canonical.js';
import { writeAtomic } from '../../engine/write.js';
import { fixtureText, importTraces, type ImportedTrace } from '../../traces/import.js';
import { REDACTION_KINDS } from '../../traces/redact.js';
import type { Values } from '../command.js';
import type { CliIO } from '../io.js';
import { notices } from '../../messages.js';
import type { CommandContext } from '../command.js';
import type { FLAGS } from '../import.js';

export const run = ({ args, positionals, io }: CommandContext<typeof FLAGS>) => importSessions(args, positionals, io);

async function importSessions(flags: Values<typeof FLAGS>, positionals: readonly string[], io: CliIO): Promise<number> {
  const format = flags.format;
  const outDir = resolve(io.cwd, flags.out);
  if (existsSync(outDir) && !statSync(outDir).isDirectory())
    throw usage('PL_USAGE_OUT_NOT_DIR', relativePath(outDir, io.cwd));
  const redact = !flags['no-redact'];
  if (!redact) io.stderr(notices.noRedactWarning());
  const traces = await importTraces(
    positionals.map((p) => ({ path: resolve(io.cwd, p), shownAs: p })),
    { ...(format ? { format } : {}), redact, tokens: tokenCounter() },
  );
  for (const t of traces) writeAtomic(join(outDir, `${t.fixture.id}.json`), fixtureText(t.fixture));
  io.stdout(
    flags.json
      ? `${JSON.stringify(traces.map(reportRow), null, 2)}\n`
      : renderImportReport(traces, relativePath(outDir, io.cwd)),
  );
  return 0;
}

function reportRow(t: ImportedTrace) {
  return {
    file: t.file,
    format: t.format,
    fixture: t.fixture.id,
    items: t.fixture.items.length,
    tokens: t.tokens,
    prunePoints: t.fixture.prunePoints.map((p) => p.id),
    timestamps: t.fixture.imported!.timestamps,
    redaction: t.fixture.imported!.redaction,
    ...(t.abandoned ? { abandonedRecords: t.abandoned } : {}),
  };
}

export function renderImportReport(traces: readonly ImportedTrace[], out: string): string {
  const kinds = REDACTION_KINDS.filter((k) => traces.some((t) => t.redactions[k] > 0));
  const rows = traces.map((t) => {
    const red = t.fixture.imported!.redaction.enabled
      ? kinds
          .map((k) => `${k} ${t.redactions[k]}`)
          .filter((s) => !s.endsWith(' 0'))
          .join(', ') || 'none found'
      : 'OFF (--no-redact)';
    return `| ${t.file} | ${t.format} | ${t.fixture.id} | ${t.fixture.items.length} | ${t.tokens} | ${t.fixture.prunePoints.map((p) => p.id).join(', ')} | ${t.fixture.imported!.timestamps} | ${red} |`;
  });
  const total = kinds.map((k) => `${k} ${traces.reduce((s, t) => s + t.redactions[k], 0)}`).join(', ') || 'none';
  // Records on a branch the conversation abandoned (a Claude Code /rewind or edited prompt): no later request held them.
  const abandoned = traces.filter((t) => t.abandoned).map((t) => `${t.fixture.id} ${t.abandoned}`);
  return [
    `imported ${traces.length} session${traces.length === 1 ? '' : 's'} into ${out}/ (no oracle: conditions run over them, nothing scores them)`,
    '',
    '| file | format | fixture | items | tokens | prune points | timestamps | redacted |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    `redactions in total: ${total}`,
    ...(abandoned.length
      ? [
          `left out as on a branch the conversation abandoned (/rewind, an edited prompt), records: ${abandoned.join(', ')}`,
        ]
      : []),
    '',
  ].join('\n');
}
