import type { EpisodeScore } from '../schemas/score.ts';

/** The explorer's checklist accuracy per scenario, as reports show it beside any model's. */
export interface ExplorerBaseline {
  scenarios: Record<string, { episodes: number; accuracyMean: number; accuracyPooled: number }>;
}

/** Summarises explorer scores per scenario (what episodes/ddr-generator/explorer-baseline.json records). */
export function explorerBaseline(scores: readonly EpisodeScore[]): ExplorerBaseline {
  const scenarios: ExplorerBaseline['scenarios'] = {};
  const groups = new Map<string, EpisodeScore[]>();
  for (const score of scores) {
    const scenario = String(score.details.scenario ?? 'unknown');
    groups.set(scenario, [...(groups.get(scenario) ?? []), score]);
  }
  const entries = [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
  // The same groups as the DDR summary, whose last row is "all" when there are several scenarios.
  if (entries.length > 1) entries.push(['all', [...scores]]);
  for (const [scenario, group] of entries) {
    const sum = (name: string) => group.reduce((total, score) => total + (score.metrics[name] ?? 0), 0);
    scenarios[scenario] = {
      episodes: group.length,
      accuracyMean: Number((sum('accuracy') / group.length).toFixed(4)),
      accuracyPooled: Number((sum('correct') / Math.max(1, sum('items'))).toFixed(4)),
    };
  }
  return { scenarios };
}
