import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultValidatorFactory } from '../../../src/engine/episode-defaults.ts';
import { loadSuite } from '../../../src/engine/load-task.ts';
import { runSuite } from '../../../src/engine/run-suite.ts';
import { createReferenceModel } from '../../../src/models/reference-model.ts';
import { createUserModel } from '../../../src/models/create-user-model.ts';
import { REPO_ROOT } from '../../../src/data-dir.ts';
import type { ServiceTask } from '../../../src/schemas/service-task.ts';
import type { Task } from '../../../src/schemas/task.ts';

// Issue 35's figure: "a scripted agent that skips identity verification fails exactly the tasks whose policies require
// it". The agent is each task's own reference with every verify_identity call taken out (a step left with no call is
// dropped); it still asks the customer for the facts, and still says what the reference says. Played through the real
// engine, service server, validator (block) and rule-based customer, graded by the service grader.
//
// The rule the expected set comes from: the caller's identity outcome is part of the graded state
// (databases/contact-center/accounts/state-diff.ts, IDENTITY_TABLE: never checked, refused, verified), and every task
// carrying policy-verify-first has the check in its gold actions (verified, or refused for identity-failed) — so each
// of them must fail, the ones that change the account also on the policy (it blocks every change before a successful
// verify_identity). The tasks without the policy (outage, escalation) must still pass.
/** Calls that change the account without a verified caller being needed (the rest need one). */
const WRITES_WITHOUT_IDENTITY = new Set(['verify_identity', 'transfer_to_human']);
function withoutVerification(task: ServiceTask): Task {
  const trajectory = task.reference.trajectory
    .map((step) => ('toolCalls' in step ? { ...step, toolCalls: step.toolCalls.filter((call) => call.name !== 'verify_identity') } : step))
    .filter((step) => !('toolCalls' in step) || step.toolCalls.length > 0);
  return { ...task, reference: { ...task.reference, trajectory } } as Task;
}

describe('an agent that skips identity verification', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('fails exactly the tasks whose policies require it, on the whole committed service suite', { timeout: 600_000 }, async () => {
    const tasks = await loadSuite(path.join(REPO_ROOT, 'episodes/service'));
    expect(tasks.length).toBeGreaterThanOrEqual(150);
    const out = await mkdtemp(path.join(os.tmpdir(), 'skip-identity-'));
    dirs.push(out);
    const result = await runSuite({
      tasks,
      modelSpec: 'scripted:reference-without-verify_identity',
      createModel: async ({ task }) => createReferenceModel(withoutVerification(task as ServiceTask)),
      userModelSpec: 'rule-based',
      createUserModel: ({ task }) => createUserModel('rule-based', { task, tools: [] }),
      createValidator: defaultValidatorFactory,
      outDir: out,
      concurrency: 2,
    });

    const service = tasks.map(({ task }) => task as ServiceTask);
    const mustFail = new Set(service.filter((task) => task.grading.policies.includes('policy-verify-first')).map((task) => task.id));
    // The generator's invariant the rule leans on: the policy is carried exactly by the tasks whose gold checks identity.
    expect([...mustFail].sort()).toEqual(service.filter((task) => task.reference.actions.some((action) => action.tool === 'verify_identity')).map((task) => task.id).sort());
    // The suite has both kinds, or the figure says nothing.
    expect(mustFail.size).toBeGreaterThan(0);
    expect(mustFail.size).toBeLessThan(tasks.length);

    expect(result.episodes.every((episode) => episode.score !== null)).toBe(true);
    const failed = new Set(result.episodes.filter((episode) => episode.score!.passed !== true).map((episode) => episode.taskId));
    expect([...failed].sort()).toEqual([...mustFail].sort());
    for (const episode of result.episodes.filter((entry) => mustFail.has(entry.taskId))) {
      const task = service.find((candidate) => candidate.id === episode.taskId)!;
      // Not by accident: the identity outcome is missing from the state, and a change was blocked by the policy.
      expect(episode.score!.metrics.state_match, episode.taskId).toBe(0);
      if (task.reference.actions.some((action) => !WRITES_WITHOUT_IDENTITY.has(action.tool))) expect(episode.score!.details.policiesViolated, episode.taskId).toContain('policy-verify-first');
    }
  });
});
