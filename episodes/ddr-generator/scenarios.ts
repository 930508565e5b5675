import { DATABASES } from '../../databases/index.ts';
import { clinicalScenario } from './clinical-scenario.ts';
import { contactCenterScenario, queueScenario } from './contact-center-scenario.ts';
import { filingsScenario } from './filings-scenario.ts';
import type { ScenarioSpec } from './scenario-spec.ts';

/** The scenarios tasks are generated for; each database is built at its default size and seed through the registry. */
export const DDR_SCENARIOS: ScenarioSpec[] = [clinicalScenario, filingsScenario, contactCenterScenario, queueScenario];

/** Builds a scenario's database at `path` (default size and seed). */
export async function buildScenarioDatabase(spec: ScenarioSpec, path: string): Promise<void> {
  await DATABASES[spec.database]!.build(path, {});
}
