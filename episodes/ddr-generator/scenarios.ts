import { buildClinical } from '../../databases/clinical/index.ts';
import { buildFilings } from '../../databases/filings/index.ts';
import { clinicalScenario } from './clinical-scenario.ts';
import { filingsScenario } from './filings-scenario.ts';
import type { ScenarioSpec } from './scenario-spec.ts';

/** A scenario and how to build its database (the generator builds it at default size, from the default seed). */
export interface Scenario {
  spec: ScenarioSpec;
  build(path: string): Promise<void>;
}

export const DDR_SCENARIOS: Scenario[] = [
  { spec: clinicalScenario, build: (path) => buildClinical(path) },
  { spec: filingsScenario, build: (path) => buildFilings(path) },
];
