import { PLANTED_PATTERNS } from '../../databases/contact-center/patterns.ts';
import { hopCount } from '../../src/planning/hop-count.ts';
import { TASK_SCHEMA_VERSION } from '../../src/schemas/task-base.ts';
import type { Plan } from '../../src/schemas/plan.ts';
import { PlanTaskSchema, type PlanTask } from '../../src/schemas/plan-task.ts';
import { DATA_BLOCKS, type DataBlock } from './data-blocks.ts';
import { PLAN_SYSTEM_PROMPT } from './plan-system-prompt.ts';
import { TRANSCRIPT_BLOCKS, type TranscriptBlock } from './transcript-blocks.ts';
import { ANALYSIS_CHAINS, themesSql, type AnalysisChain, type ChainStep, type FollowUp } from './analysis-chains.ts';
import { promptSimilarity } from '../../src/planning/prompt-similarity.ts';
import { SeededRandom } from '../../databases/seeded-random.ts';

export type Stratum = 'objective-simple' | 'objective-compound' | 'subjective-simple' | 'subjective-compound';
export const STRATA: Stratum[] = ['objective-simple', 'objective-compound', 'subjective-simple', 'subjective-compound'];
const STRATUM_ID_PREFIX: Record<Stratum, string> = { 'objective-simple': 'os', 'objective-compound': 'oc', 'subjective-simple': 'ss', 'subjective-compound': 'sc' };

export interface GeneratePlanSuiteOptions {
  seed?: number;
  /** Questions per stratum (default 50: 200 in all). */
  perStratum?: number;
}

type Detail = PlanTask['reference']['details'][number];

/** A plan under construction: steps, their details, the facts execution must reach, the filter terms used. */
class PlanBuilder {
  readonly plan: Plan = { steps: [] };
  readonly details: Detail[] = [];
  readonly facts: string[] = [];
  readonly terms = new Set<string>();
  readonly patterns = new Set<string>();

  data(block: DataBlock): number {
    const id = this.push('T2S', block.prompt, []);
    this.details.push({ stepId: id, sql: block.sql.replace(/\s+/g, ' ').trim() });
    if (!isLabel(block.sql)) this.fact(block.fact);
    for (const term of block.terms) this.terms.add(term);
    this.patterns.add(block.patternId);
    return id;
  }

  /** A RAG step of a simple question: the block's retrieval, on its own. */
  transcripts(block: TranscriptBlock): number {
    const id = this.push('RAG', block.prompt, []);
    this.details.push({ stepId: id, retrieval: block.retrieval });
    if (block.fact) this.fact(block.fact);
    for (const term of block.terms) this.terms.add(term);
    return id;
  }

  /**
   * A T2S step consuming the result of step `source`: "(k)" in its prompt and '(k)' / '(k)[]' in its SQL are bound
   * to that step (the executor fills the SQL with its actual values, see run-plan.ts).
   */
  chained(step: ChainStep, source: number): number {
    const id = this.push('T2S', step.prompt.replace(/\(\d+\)/g, `(${source})`), [source]);
    if (step.sql) this.details.push({ stepId: id, sql: step.sql.replace(/\s+/g, ' ').trim().replace(/'\(\d+\)(\[\])?'/g, (_, list: string | undefined) => `'(${source})${list ?? ''}'`) });
    if (step.fact && !isLabel(step.sql)) this.fact(step.fact);
    if (step.patternId) this.patterns.add(step.patternId);
    return id;
  }

  /** A RAG step over the calls an earlier step listed; `fact` is a value the retrieved calls' metadata shows. */
  evidence(prompt: string, retrieval: { query: string; filters: Record<string, unknown> }, dependsOn: number, fact?: string): number {
    const id = this.push('RAG', prompt.replace(/\((\d+)\)/g, `(${dependsOn})`), [dependsOn]);
    this.details.push({ stepId: id, retrieval });
    if (fact) this.fact(fact);
    return id;
  }

  llm(prompt: string, dependsOn: number[]): number {
    return this.push('LLM', prompt, dependsOn);
  }

  private push(tool: 'T2S' | 'RAG' | 'LLM', prompt: string, dependsOn: number[]): number {
    const id = this.plan.steps.length + 1;
    this.plan.steps.push({ id, tool, prompt, depends_on: dependsOn });
    return id;
  }

  private fact(fact: string): void {
    if (!this.facts.includes(fact)) this.facts.push(fact);
  }
}

/**
 * A hand-written finding label ("lower after long holds") is the SQL's wording, not a value in the data: the executed
 * plan computes the comparison itself (its text-to-SQL never writes the label), so a label is not a fact to reach.
 */
const isLabel = (sql: string): boolean => /CASE WHEN .* THEN '/.test(sql);

const listOf = (items: string[]): string => (items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);
const refs = (ids: number[]): string => listOf(ids.map((id) => `(${id})`));

/** Objective, simple: one structured fact → one T2S step. The i-th question takes block i mod n, phrasing i div n. */
function objectiveSimple(index: number): { query: string; builder: PlanBuilder } {
  const block = DATA_BLOCKS[index % DATA_BLOCKS.length]!;
  const builder = new PlanBuilder();
  builder.data(block);
  return { query: block.questions[Math.floor(index / DATA_BLOCKS.length) % block.questions.length]!, builder };
}

/** Subjective, simple: what was said about one thing → RAG, then an LLM summary of it. */
function subjectiveSimple(index: number): { query: string; builder: PlanBuilder } {
  const standalone = TRANSCRIPT_BLOCKS;
  const block = standalone[index % standalone.length]!;
  const builder = new PlanBuilder();
  const rag = builder.transcripts(block);
  builder.llm(block.synthesis.replace('(R)', `(${rag})`), [rag]);
  return { query: block.questions[Math.floor(index / standalone.length) % block.questions.length]!, builder };
}

/** Follow-ups any chain can take, about the entity's calls in its own words (`entityCalls`); `chain.generic` may keep fewer. */
function genericFollowUps(chain: AnalysisChain): FollowUp[] {
  const calls = chain.entityCalls;
  const all: FollowUp[] = [
    { key: 'per-channel', clause: 'which channels those calls arrive on', prompt: `Count ${calls} per channel`, sql: '' },
    { key: 'resolution', clause: 'how often those calls get resolved', prompt: `Compute the resolution rate of ${calls}`, sql: '' },
    { key: 'hold', clause: 'how long those callers wait on hold', prompt: `Compute the average hold time of ${calls}`, sql: '' },
    { key: 'escalation', clause: 'how often those calls are escalated', prompt: `Compute the escalation rate of ${calls}`, sql: '' },
  ];
  return all.filter((followUp) => !chain.generic || chain.generic.includes(followUp.key!));
}

/**
 * How a compound question sets the entity against something: `peers` (the same calls of every other entity, a branch of
 * their own), `contrast` (the entity's own other calls, a branch of their own), `benchmark` (one comparison step: a
 * measure of the entity's calls against every other call).
 */
type ComparisonForm = 'peers' | 'contrast' | 'benchmark';

/** What a compound question is built from: the chain (head analysis, entity kind), its comparison, whether it reads transcripts, its follow-ups. */
interface Blueprint {
  chain: AnalysisChain;
  form: ComparisonForm;
  subjective: boolean;
  followUps: FollowUp[];
}

/**
 * Every blueprint of a stratum — each chain with each of its comparison forms and each set of 1–3 of its follow-ups
 * (its own and the generic ones) — in a seeded order that takes one from each chain × form in turn, so that 50
 * questions cover every head analysis and comparison form before any repeats.
 */
function blueprints(subjective: boolean, random: SeededRandom): Blueprint[] {
  const groups: Blueprint[][] = [];
  for (const chain of ANALYSIS_CHAINS) {
    const pool = [...chain.followUps.map((followUp, index) => ({ ...followUp, key: followUp.key ?? `own-${index}` })), ...genericFollowUps(chain)];
    const forms: ComparisonForm[] = ['peers', ...(chain.contrast ? ['contrast' as const] : []), 'benchmark'];
    for (const form of forms) {
      // A benchmark already measures its measure of the entity's calls: no follow-up measures it again.
      const usable = form === 'benchmark' ? pool.filter((followUp) => !followUp.prompt.includes(chain.benchmark.measure)) : pool;
      const group: Blueprint[] = [];
      for (let mask = 1; mask < 1 << usable.length; mask += 1) {
        const chosen = usable.filter((_, index) => mask & (1 << index));
        if (chosen.length <= 3) group.push({ chain, form, subjective, followUps: chosen });
      }
      groups.push(random.shuffle(group));
    }
  }
  const order = random.shuffle(groups);
  const longest = Math.max(...order.map((group) => group.length));
  const found: Blueprint[] = [];
  for (let round = 0; round < longest; round += 1) for (const group of order) if (round < group.length) found.push(group[round]!);
  return found;
}

/**
 * A compound question along one blueprint — the head finds an entity; the entity's calls are listed, (subjective) their
 * transcripts read, and the key moments of the calls read (or listed) counted. The comparison is a second branch beside
 * it, built the same way from the head (`peers`, `contrast`), or one step measuring the entity's calls against every
 * other call (`benchmark`). The follow-ups measure the entity further, and an LLM step explains the whole.
 */
function compound(blueprint: Blueprint, lead: string): { query: string; builder: PlanBuilder } {
  const { chain, form, subjective, followUps } = blueprint;
  const group = form === 'peers' ? chain.peers : form === 'contrast' ? chain.contrast : undefined;
  const builder = new PlanBuilder();
  const head = builder.data(DATA_BLOCKS.find((block) => block.key === chain.head)!);
  const calls = builder.chained(chain.calls, head);
  const groupCalls = group ? builder.chained(group.calls, head) : undefined;
  const retrieval = (source: number) => ({ query: chain.evidence.query, filters: { call_ids: `(${source})` } });
  const read = subjective ? builder.evidence(chain.evidence.prompt, retrieval(calls), calls, chain.evidence.fact) : calls;
  const groupRead = group && groupCalls !== undefined && subjective ? builder.evidence(group.evidence, retrieval(groupCalls), groupCalls) : groupCalls;
  const counted = (whose: string, source: number) =>
    `Count the key moments of the ${whose} ${subjective ? `whose passages (${source}) returned` : `listed in (${source})`}, by kind`;
  const themes = builder.chained({ prompt: counted('calls', read), sql: themesSql(read), ...(chain.themes.fact ? { fact: chain.themes.fact } : {}) }, read);
  const groupThemes = groupRead !== undefined ? builder.chained({ prompt: counted('comparison calls', groupRead), sql: themesSql(groupRead) }, groupRead) : undefined;
  const benchmark = form === 'benchmark' ? builder.chained({ prompt: `Compare the ${chain.benchmark.measure} of ${chain.entityCalls} against the other calls`, sql: '' }, head) : undefined;
  const measured = followUps.map((followUp) => builder.chained(followUp, head));
  const evidence = subjective ? [read, ...(groupRead !== undefined ? [groupRead] : [])] : [];
  const comparison = groupThemes !== undefined ? ` against those of the comparison calls in (${groupThemes})` : `, the comparison with every other call in (${benchmark})`;
  builder.llm(
    `Explain the finding in (${head}) for a contact-center manager using ${subjective ? `the call passages in ${refs(evidence)}, ` : ''}the key moments in (${themes})${comparison} and the measurements ${refs(measured)}`,
    [head, ...evidence, themes, ...(groupThemes !== undefined ? [groupThemes] : [benchmark!]), ...measured],
  );
  const clauses = [...followUps.map((followUp) => followUp.clause), ...(subjective ? [chain.evidence.clause] : [])];
  return { query: `${lead}: ${listOf(clauses)}, and ${group?.clause ?? chain.benchmark.clause}?`, builder };
}

/** Questions closer than this (trigram cosine) to one already in the suite are near-duplicates and left out. */
export const MAX_QUESTION_SIMILARITY = 0.9;

/**
 * Generates the planning suite: `perStratum` questions in each of objective/subjective × simple/compound, each with a
 * reference plan (T2S steps carry their SQL, RAG steps their retrieval), the facts its execution reaches, and its hops.
 */
export function generatePlanSuite(options: GeneratePlanSuiteOptions = {}): PlanTask[] {
  const seed = options.seed ?? 1;
  const perStratum = options.perStratum ?? 50;
  const random = new SeededRandom(seed);
  const tasks: PlanTask[] = [];
  const accepted: string[] = [];
  for (const stratum of STRATA) {
    let produced = 0;
    // Compound questions walk the stratum's blueprints in a seeded order that visits every chain × comparison form in turn.
    const shapes = stratum.endsWith('compound') ? blueprints(stratum === 'subjective-compound', random) : [];
    for (let attempt = 0; produced < perStratum && attempt < perStratum * 20; attempt += 1) {
      const { query, builder } =
        stratum === 'objective-simple' ? objectiveSimple(attempt)
          : stratum === 'subjective-simple' ? subjectiveSimple(attempt)
            : (() => {
                const blueprint = shapes[attempt % shapes.length]!;
                return compound(blueprint, random.pick(blueprint.chain.leads));
              })();
      if (accepted.some((other) => promptSimilarity(other, query) >= MAX_QUESTION_SIMILARITY)) continue;
      accepted.push(query);
      produced += 1;
      tasks.push(toTask(stratum, produced, query, builder));
    }
  }
  return tasks;
}

function toTask(stratum: Stratum, number: number, query: string, builder: PlanBuilder): PlanTask {
  const [kind, shape] = stratum.split('-') as ['objective' | 'subjective', 'simple' | 'compound'];
  const hops = hopCount(builder.plan);
  const patterns = PLANTED_PATTERNS.filter((pattern) => builder.patterns.has(pattern.id)).map((pattern) => pattern.id);
  return PlanTaskSchema.parse({
    schemaVersion: TASK_SCHEMA_VERSION,
    id: `plan-${STRATUM_ID_PREFIX[stratum]}-${String(number).padStart(3, '0')}`,
    style: 'plan',
    title: query,
    domain: 'contact-center',
    system: PLAN_SYSTEM_PROMPT,
    query,
    environment: { servers: [{ name: 'sql', options: {} }, { name: 'transcripts', options: {} }], database: 'contact-center' },
    constraints: [],
    limits: { maxRounds: 6, maxToolCalls: 40 },
    reference: {
      trajectory: [{ answer: JSON.stringify(builder.plan) }],
      plan: builder.plan,
      details: builder.details,
    },
    grading: { kind, shape, expectedFacts: builder.facts },
    metadata: { hops, steps: builder.plan.steps.length, patterns, filterTerms: [...builder.terms].sort(), generator: 'episodes/plan-generator' },
  });
}
