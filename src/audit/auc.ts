// ROC AUC by the Mann–Whitney U statistic: the probability that a randomly drawn positive row scores above a
// randomly drawn negative one, a tie counting one half. Ranks are averaged over ties, so a constant score gives
// exactly 0.5 and no tie-breaking order (row order, a sort's stability) can move the value.

/** AUC of `scores` for `labels` (true = positive), or null when either class is empty (the statistic is undefined). */
export function rocAuc(scores: readonly number[], labels: readonly boolean[]): number | null {
  if (scores.length !== labels.length) throw new Error(`internal: ${scores.length} scores for ${labels.length} labels`);
  const positives = labels.filter(Boolean).length;
  const negatives = labels.length - positives;
  if (positives === 0 || negatives === 0) return null;
  const order = scores.map((_, i) => i).sort((a, b) => scores[a]! - scores[b]!);
  let positiveRankSum = 0;
  for (let start = 0; start < order.length; ) {
    let end = start;
    while (end + 1 < order.length && scores[order[end + 1]!] === scores[order[start]!]) end += 1;
    // Ranks start..end (1-based start+1..end+1) share their mean.
    const meanRank = (start + end) / 2 + 1;
    for (let k = start; k <= end; k += 1) if (labels[order[k]!]) positiveRankSum += meanRank;
    start = end + 1;
  }
  return (positiveRankSum - (positives * (positives + 1)) / 2) / (positives * negatives);
}
