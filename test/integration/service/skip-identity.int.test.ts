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
// The rule the expected set comes from: policy-verify-first (episodes/service-generator) blocks every change before a
// successful verify_identity, and the server refuses it too (every write tool but transfer_to_human needs a verified
// caller, mcp-servers/service/README.md); a task whose gold actions change nothing is not touched by the policy.
// So the tasks that must fail are those that carry policy-verify-first and whose gold actions hold a change other than
// verify_identity and transfer_to_human — and every other task must still pass.
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

    const mustFail = new Set(tasks.map(({ task }) => task as ServiceTask)
      .filter((task) => task.grading.policies.includes('policy-verify-first') && task.reference.actions.some((action) => !WRITES_WITHOUT_IDENTITY.has(action.tool)))
      .map((task) => task.id));
    // The suite has both kinds, or the figure says nothing.
    expect(mustFail.size).toBeGreaterThan(0);
    expect(mustFail.size).toBeLessThan(tasks.length);

    expect(result.episodes.every((episode) => episode.score !== null)).toBe(true);
    const failed = new Set(result.episodes.filter((episode) => episode.score!.passed !== true).map((episode) => episode.taskId));
    expect([...failed].sort()).toEqual([...mustFail].sort());
    // Each of them fails on the policy, not by accident: policy-verify-first has a verdict in it.
    for (const episode of result.episodes.filter((entry) => mustFail.has(entry.taskId))) {
      expect(episode.score!.details.policiesViolated, episode.taskId).toContain('policy-verify-first');
    }
  });
});
