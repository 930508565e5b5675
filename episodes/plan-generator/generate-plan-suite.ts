import { PLANTED_PATTERNS } from '../../databases/contact-center/patterns.ts';
import { hopCount } from '../../src/planning/hop-count.ts';
import { TASK_SCHEMA_VERSION } from '../../src/schemas/task-base.ts';
import type { Plan } from '../../src/schemas/plan.ts';
import { PlanTaskSchema, type PlanTask } from '../../src/schemas/plan-task.ts';
import { DATA_BLOCKS, type DataBlock } from './data-blocks.ts';
import { PLAN_SYSTEM_PROMPT } from './plan-system-prompt.ts';
import { TRANSCRIPT_BLOCKS, type TranscriptBlock } from './transcript-blocks.ts';
import { SeededRandom } from '../../databases/seeded-random.ts';

export type Stratum = 'objective-simple' | 'objective-compound' | 'subjective-simple' | 'subjective-compound';
export const STRATA: Stratum[] = ['objective-simple', 'objective-compound', 'subjective-simple', 'subjective-compound'];
const PREFIX: Record<Stratum, string> = { 'objective-simple': 'os', 'objective-compound': 'oc', 'subjective-simple': 'ss', 'subjective-compound': 'sc' };

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
    this.fact(block.fact);
    for (const term of block.terms) this.terms.add(term);
    this.patterns.add(block.patternId);
    return id;
  }

  /** A RAG step; a chained block narrows to what data step `dataStep` found ("(D)" bound to it). */
  transcripts(block: TranscriptBlock, dataStep?: number): number {
    const bind = (text: string): string => (dataStep === undefined ? text : text.replaceAll('(D)', `(${dataStep})`));
    if (block.chained && dataStep === undefined) throw new Error(`transcript block ${block.key} needs its data step`);
    const id = this.push('RAG', bind(block.prompt), block.chained ? [dataStep!] : []);
    const filters = Object.fromEntries(Object.entries(block.retrieval.filters).map(([key, value]) => [key, typeof value === 'string' ? bind(value) : value]));
    this.details.push({ stepId: id, retrieval: { query: block.retrieval.query, filters } });
    this.fact(block.fact);
    for (const term of block.terms) this.terms.add(term);
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

const capitalise = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
const listOf = (items: string[]): string => (items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);
/** A short name of a data block's finding for LLM prompts, without its filter terms (repeating one downstream is redundant). */
const topicOf = (block: DataBlock): string =>
  block.key.split('-').filter((word) => !block.terms.some((term) => term.toLowerCase().split(/[^a-z0-9]+/).includes(word))).join(' ');
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
  const standalone = TRANSCRIPT_BLOCKS.filter((block) => !block.chained);
  const block = standalone[index % standalone.length]!;
  const builder = new PlanBuilder();
  const rag = builder.transcripts(block);
  builder.llm(block.synthesis.replace('(R)', `(${rag})`), [rag]);
  return { query: block.questions[Math.floor(index / standalone.length) % block.questions.length]!, builder };
}

/** Objective, compound: 2–4 structured facts in one question → parallel T2S steps, one LLM step combining them. */
function objectiveCompound(random: SeededRandom): { query: string; builder: PlanBuilder } {
  const blocks = random.sample(DATA_BLOCKS, random.int(2, 4));
  const builder = new PlanBuilder();
  const ids = blocks.map((block) => builder.data(block));
  builder.llm(`Combine the findings ${refs(ids)} into one answer, one sentence per finding`, ids);
  return { query: `${capitalise(listOf(blocks.map((block) => block.clause)))}?`, builder };
}

/**
 * Subjective, compound: 1–4 topics, each a structured finding and what customers say about it → per topic a T2S and
 * a RAG step (in parallel, or the RAG step narrowed to what the T2S step found) and an LLM step explaining one by the
 * other; with several topics, a final LLM step.
 */
function subjectiveCompound(random: SeededRandom): { query: string; builder: PlanBuilder } {
  // One transcript block per structured finding: two topics on the same finding would repeat its T2S step.
  const paired = TRANSCRIPT_BLOCKS.filter((block) => block.explains !== undefined);
  const topics: TranscriptBlock[] = [];
  for (const block of random.sample(paired, paired.length)) {
    if (!topics.some((topic) => topic.explains === block.explains)) topics.push(block);
  }
  topics.splice(random.int(1, 4));
  const builder = new PlanBuilder();
  const explanations: number[] = [];
  const clauses: string[] = [];
  for (const transcript of topics) {
    const data = DATA_BLOCKS.find((block) => block.key === transcript.explains)!;
    const t2s = builder.data(data);
    const rag = builder.transcripts(transcript, t2s);
    explanations.push(builder.llm(`Explain the ${topicOf(data)} finding in (${t2s}) with the call evidence in (${rag})`, [t2s, rag]));
    clauses.push(`${data.clause}, and ${transcript.clause}`);
  }
  if (explanations.length > 1) builder.llm(`Write one summary for a contact-center manager from the explanations ${refs(explanations)}`, explanations);
  return { query: `${capitalise(clauses.join('; also '))}?`, builder };
}

/**
 * Generates the planning suite: `perStratum` questions in each of objective/subjective × simple/compound, each with a
 * reference plan (T2S steps carry their SQL, RAG steps their retrieval), the facts its execution reaches, and its hops.
 */
export function generatePlanSuite(options: GeneratePlanSuiteOptions = {}): PlanTask[] {
  const seed = options.seed ?? 1;
  const perStratum = options.perStratum ?? 50;
  const random = new SeededRandom(seed);
  const tasks: PlanTask[] = [];
  const seenQueries = new Set<string>();
  for (const stratum of STRATA) {
    let produced = 0;
    for (let attempt = 0; produced < perStratum && attempt < perStratum * 20; attempt += 1) {
      const { query, builder } =
        stratum === 'objective-simple' ? objectiveSimple(attempt)
          : stratum === 'subjective-simple' ? subjectiveSimple(attempt)
            : stratum === 'objective-compound' ? objectiveCompound(random)
              : subjectiveCompound(random);
      if (seenQueries.has(query)) continue;
      seenQueries.add(query);
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
    id: `plan-${PREFIX[stratum]}-${String(number).padStart(3, '0')}`,
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
