import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureDatabase } from '../../../databases/index.ts';
import { generateServiceSuite } from '../../../episodes/service-generator/generate-service-suite.ts';
import { referenceIssues } from '../../../src/lint/index.ts';
import { REPO_ROOT } from '../../../src/data-dir.ts';
import { SERVICE_PROBLEM_KINDS, ServiceTaskSchema, type ServiceTask } from '../../../src/schemas/service-task.ts';

const SUITE = path.join(REPO_ROOT, 'episodes/service');
const files = readdirSync(SUITE).filter((file) => file.endsWith('.json')).sort();
const tasks = files.map((file) => ServiceTaskSchema.parse(JSON.parse(readFileSync(path.join(SUITE, file), 'utf8'))));
const byId = (id: string) => structuredClone(tasks.find((task) => task.id === id)!);
let dbPath: string;

beforeAll(async () => {
  dbPath = await ensureDatabase('contact-center');
}, 300_000);

describe('the committed service suite', () => {
  it('has at least 150 tasks over at least 8 problem kinds, the refusing, transferring and identity-first ones among them', () => {
    expect(tasks.length).toBeGreaterThanOrEqual(150);
    const kinds = new Set(tasks.map((task) => task.grading.kind));
    expect(kinds.size).toBeGreaterThanOrEqual(8);
    for (const kind of ['identity-failed', 'out-of-policy', 'escalation'] as const) expect(kinds.has(kind), kind).toBe(true);
    expect(new Set(tasks.map((task) => task.grading.outcome))).toEqual(new Set(['resolve', 'refuse', 'transfer']));
    expect(new Set(tasks.map((task) => task.id)).size).toBe(tasks.length);
    // A task whose gold changes the account must require verification first (its policy), and its gold verifies first.
    for (const task of tasks.filter((each) => each.reference.actions.some((action) => !['verify_identity', 'transfer_to_human'].includes(action.tool)))) {
      expect(task.grading.policies, task.id).toContain('policy-verify-first');
      expect(task.reference.actions[0]!.tool, task.id).toBe('verify_identity');
    }
  });

  it('is what the seeded generator writes, task for task', async () => {
    const generated = await generateServiceSuite({ dbPath, seed: 1, perKind: 17 });
    expect(generated.map((task) => `${task.id}.json`).sort()).toEqual(files);
    for (const task of generated) expect(`${JSON.stringify(task, null, 2)}\n`, task.id).toBe(readFileSync(path.join(SUITE, `${task.id}.json`), 'utf8'));
  }, 120_000);

  it('lints clean, one task of each kind: gold replays, the reference passes its policies and says what it must', async () => {
    for (const kind of SERVICE_PROBLEM_KINDS) {
      const task = tasks.find((each) => each.grading.kind === kind)!;
      expect(await referenceIssues(task), task.id).toEqual([]);
    }
  }, 120_000);
});

describe('lint on a broken service task', () => {
  const messages = async (task: ServiceTask) => (await referenceIssues(task)).map((issue) => `${issue.taskId} ${issue.constraints.join(',')}: ${issue.message}`);

  it('names the task and the gold action that fails on replay', async () => {
    const task = byId('service-billing-dispute-001');
    const credit = task.reference.actions[1]!;
    credit.arguments = { ...credit.arguments, invoice_id: 'INV-0000000-01' };
    expect(await messages(task)).toContainEqual(expect.stringMatching(/^service-billing-dispute-001 : gold action 2 \(issue_credit\) fails on replay: invoice INV-0000000-01 is not an invoice of/u));
  }, 60_000);

  it('reports a reference that changes the account without verifying: the policy, and the state it reaches', async () => {
    const task = byId('service-plan-change-001');
    task.reference.trajectory = task.reference.trajectory.filter((step) => !('toolCalls' in step && step.toolCalls[0]!.name === 'verify_identity'));
    const found = await messages(task);
    expect(found).toContainEqual(expect.stringMatching(/^service-plan-change-001 policy-verify-first: the reference breaks it in round \d+/u));
    // Unverified, the server refuses the change: the reference's calls leave the plan as it was.
    expect(found).toContainEqual(expect.stringContaining("the reference's calls reach another state than the gold actions"));
  }, 60_000);

  it('reports a credit above the disputed amount as a broken policy', async () => {
    const task = byId('service-billing-dispute-002');
    const step = task.reference.trajectory.find((each) => 'toolCalls' in each && each.toolCalls[0]!.name === 'issue_credit')!;
    if (!('toolCalls' in step)) throw new Error('no credit step');
    const amount = step.toolCalls[0]!.arguments.amount as number;
    step.toolCalls[0]!.arguments = { ...step.toolCalls[0]!.arguments, amount: amount + 1 };
    expect(await messages(task)).toContainEqual(expect.stringMatching(/^service-billing-dispute-002 policy-credit-within-dispute: the reference breaks it/u));
  }, 60_000);

  it('reports credits that pass the disputed amount only in total (each call within it), in the round of the one that passes it', async () => {
    // service-billing-dispute-001 disputes 9.00 on INV-0001587-03 and credits 9.00 in its 4th step (round 4). A 2nd credit
    // of 5.00 after it, in its own step (round 5), is within 9.00 alone but makes 14.00 > 9.00 in total: the policy
    // blocks it, so lint names round 5. The gold actions get the same extra credit.
    const task = byId('service-billing-dispute-001');
    const index = task.reference.trajectory.findIndex((each) => 'toolCalls' in each && each.toolCalls[0]!.name === 'issue_credit');
    const step = task.reference.trajectory[index]!;
    if (!('toolCalls' in step)) throw new Error('no credit step');
    const again = { ...step.toolCalls[0]!, arguments: { ...step.toolCalls[0]!.arguments, amount: 5 } };
    task.reference.trajectory.splice(index + 1, 0, { toolCalls: [again] });
    task.reference.actions.push({ tool: 'issue_credit', arguments: again.arguments });
    expect(index).toBe(3);
    expect(await messages(task)).toContainEqual(expect.stringMatching(/^service-billing-dispute-001 policy-credit-within-dispute: the reference breaks it in round 5: .*in total; 9\.00 already credited/u));
  }, 60_000);

  it('reports a reference that does not ask for identity, does not say the value, or does not meet the goal phrases', async () => {
    const task = byId('service-cancellation-threat-001');
    task.reference.trajectory = task.reference.trajectory.map((step) => ('answer' in step ? { answer: step.answer.startsWith('I can help') ? 'One moment please.' : 'All done.' } : step));
    const found = await messages(task);
    expect(found).toContainEqual(expect.stringContaining("never asks for the customer's full name"));
    expect(found).toContainEqual(expect.stringContaining('never tells the customer balance owed'));
    expect(found).toContainEqual(expect.stringContaining("no reference reply meets the customer's goal phrases"));
  }, 60_000);
});
