// Renders the preregistration as prose for the book's reader. The Markdown is generated from the JSON, never edited
// by hand, so the two cannot drift (a test compares the committed file with this rendering).
import type { Preregistration } from './preregistration.js';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const code = (text: string) => `\`${text}\``;

function parameters(p: Readonly<Record<string, number | string | boolean>>): string {
  const keys = Object.keys(p);
  return keys.length === 0 ? '-' : keys.map((k) => `${k}=${String(p[k])}`).join(', ');
}

export function renderPreregistrationMarkdown(p: Preregistration): string {
  const out: string[] = [];
  const para = (text: string) => out.push(text, '');
  out.push(`# ${p.title}`, '');
  out.push(
    '<!-- Generated from preregistration.json by `npm run generate` or `npm run prereg:freeze`; do not edit by hand. -->',
    '',
  );
  para(`**Status.** ${p.status}`);
  for (const a of p.amendments) {
    para(
      `**Amendment ${a.id} (${a.date}${a.resultsExisted ? ', made after results governed by this file existed' : ', made before any result it governs existed'}).** ${a.reason}`,
    );
    for (const c of a.changes) out.push(`- ${c}`);
    out.push('');
  }
  if (p.history.length > 0) {
    out.push('## History', '');
    for (const h of p.history) {
      para(
        `**Version ${h.version} (${h.date}; ${h.frozenBeforeResults ? 'frozen before any result it governs existed' : 'not frozen before every result it governs'}).** ${h.note}`,
      );
      if (h.resultsThatExisted.length > 0) {
        out.push('Results that existed when it was written:', '');
        for (const r of h.resultsThatExisted) out.push(`- ${r}`);
        out.push('');
      }
    }
  }
  para(`**Source.** ${p.source}`);
  para(`**Question.** ${p.question}`);

  out.push('## Frozen inputs', '');
  para(
    `The study is frozen against ${code(p.fixtureManifest.file)}, whose text has sha256 ${code(p.fixtureManifest.sha256)}. ` +
      'That manifest lists the sha256 of every fixture and, separately, of every oracle. `npm run experiment` checks all of ' +
      'them before any condition runs and refuses (exit 2) a changed, missing or extra file.',
  );
  para(
    `The preregistered run: fixtures ${code(p.run.fixtures)}, timing ${code(p.run.timing)}, placeholders ${code(p.run.placeholders)}, ` +
      `seed ${p.run.seed}, tokens counted with ${code(p.run.tokenizer.package)} (${code(p.run.tokenizer.encoding)}). Models: ${p.run.models}`,
  );

  out.push('## Unit of analysis', '');
  for (const u of p.unit) para(u);

  out.push('## Hypotheses', '');
  for (const h of p.hypotheses) {
    out.push(
      `- **${h.id}.** ${h.claim} *Prediction:* ${h.prediction} ` +
        `(conditions: ${h.conditions.map(code).join(', ')}; metrics: ${h.metrics.map(code).join(', ')})`,
    );
  }
  out.push('');

  out.push('## Conditions', '');
  para(
    'Every condition runs over every prune point of every fixture. Sweeps vary one parameter of a base condition; ' +
      'they are secondary analyses, outside the family of preregistered comparisons.',
  );
  out.push('| condition | layer | rung | upper-risk | parameters | sweep of | role |', '|---|---|---|---|---|---|---|');
  for (const c of p.conditions) {
    out.push(
      `| ${code(c.name)} | ${c.layer} | ${c.rung ?? '-'} | ${c.upperRisk ? 'yes' : 'no'} | ${cell(parameters(c.parameters))} | ` +
        `${c.sweep ? `${code(c.sweep.base)} (${c.sweep.parameter} = ${c.sweep.value})` : '-'} | ${cell(c.role)} |`,
    );
  }
  out.push('');

  out.push('## Measures', '');
  para(
    'Every rate is reported with its numerator and denominator. Counts are pooled by summing numerators and denominators, never by averaging rates.',
  );
  out.push('| measure | numerator | denominator | when the denominator is 0 | pooling |', '|---|---|---|---|---|');
  for (const m of p.metrics)
    out.push(
      `| ${code(m.id)} | ${cell(m.numerator)} | ${cell(m.denominator)} | ${cell(m.whenEmpty)} | ${cell(m.pooling)} |`,
    );
  out.push('');
  para(
    p.analysis.paired.unit === 'fixture'
      ? 'Per fixture, the paired tests compare these counts:'
      : 'Per prune point, the paired tests use these binary outcomes:',
  );
  for (const o of p.pointOutcomes) out.push(`- ${code(o.id)}: ${o.definition}`);
  out.push('');

  out.push('## Acceptance criteria', '');
  for (const a of p.acceptance) out.push(`- **${a.id}** (${a.hypothesis}). ${a.criterion}`);
  out.push('');

  const a = p.analysis;
  out.push('## Analysis plan', '');
  para(
    `**Intervals.** ${a.intervals.method === 'wilson' ? 'Wilson score intervals' : 'Fixture-cluster bootstrap intervals'} at ${a.intervals.level * 100}% for every pooled rate. ${a.intervals.note}`,
  );
  para(
    `**Bootstrap.** A ${a.bootstrap.method} bootstrap resampling whole ${a.bootstrap.resample}s with replacement, ` +
      `${a.bootstrap.iterations} iterations, seed ${a.bootstrap.seed}, ${a.bootstrap.level * 100}% intervals. ${a.bootstrap.note}`,
  );
  para(
    `**Paired comparisons.** ${a.paired.test} tests (${a.paired.sided}) on the same ${a.paired.unit}s. ${a.paired.note}`,
  );
  para(
    `**Multiplicity.** ${a.multiplicity.method === 'holm' ? 'Holm' : a.multiplicity.method} correction at alpha = ${a.multiplicity.alpha} ` +
      `across the ${a.multiplicity.family.length} preregistered comparisons ${a.multiplicity.family.join(', ')}.`,
  );
  out.push(
    `| comparison | condition | reference | outcome per ${a.paired.unit === 'fixture' ? 'fixture' : 'prune point'} | hypothesis | expected |`,
    '|---|---|---|---|---|---|',
  );
  for (const c of a.comparisons)
    out.push(
      `| ${c.id} | ${code(c.condition)} | ${code(c.reference)} | ${code(c.outcome)} | ${c.hypothesis} | ${cell(c.expected)} |`,
    );
  out.push('');
  if (a.secondary.length > 0) {
    out.push('**Secondary analyses** (reported, not in the Holm family):', '');
    for (const s of a.secondary) out.push(`- ${s}`);
    out.push('');
  }
  if (a.preregisteredTables) {
    para(
      `**Preregistered tables.** ${a.preregisteredTables.map(code).join(', ')}. Every other table is stamped "Exploratory: not preregistered" in its first line.`,
    );
  }
  if (a.exploratory.length > 0) {
    out.push('**Exploratory** (labelled as such wherever reported):', '');
    for (const s of a.exploratory) out.push(`- ${s}`);
    out.push('');
  }

  out.push('## What each pattern of results would mean', '');
  out.push('| pattern | what it would mean | hypotheses |', '|---|---|---|');
  for (const o of p.outcomes)
    out.push(`| ${cell(o.pattern)} | ${cell(o.meaning)} | ${o.hypotheses.join(', ') || '-'} |`);
  out.push('');

  out.push('## Deviations', '');
  out.push(p.deviations, '');
  return out.join('\n');
}
