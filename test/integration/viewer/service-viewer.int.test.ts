import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../src/data-dir.ts';
import { openStore, type ResultsStore } from '../../../src/results/store.ts';
import { startViewer, type Viewer } from '../../../src/viewer/server.ts';
import { sandboxOk } from '../../support/sandbox-cli.ts';

// A service episode played by the real CLI (reference agent, rule-based customer), indexed by the real store and
// served by the real viewer: the customer's turns come through the events API with their speaker, and the episode
// page's expected panel and score are the service style's.
let root: string;
let store: ResultsStore;
let viewer: Viewer;
let episodeId: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'service-viewer-'));
  const out = path.join(root, 'runs', 'svc');
  sandboxOk('run', '--suite', path.join(REPO_ROOT, 'test/fixtures/service'), '--model', 'reference', '--user-model', 'rule-based', '--out', out);
  episodeId = path.join(out, 'svc-fixture-credit.0.jsonl');
  store = await openStore(':memory:', () => undefined);
  viewer = await startViewer({ store, dirs: [path.join(root, 'runs')], pollMs: 0 });
}, 240_000);

afterAll(async () => {
  await viewer?.close();
  store?.close();
  await rm(root, { recursive: true, force: true });
});

const api = async (route: string) => (await fetch(`${viewer.url}api/${route}`)).json() as Promise<unknown>;

describe('the viewer on a service episode', () => {
  it('serves both speakers: the agent\'s messages and the customer\'s turns with speaker and hang-up, the user model on episode-start', async () => {
    const events = (await api(`events?id=${encodeURIComponent(episodeId)}&from=0&limit=100`)) as Array<Record<string, unknown>>;
    expect(events[0]).toMatchObject({ type: 'episode-start', user_model: 'rule-based' });
    const turns = events.filter((event) => event.type === 'user-turn');
    // the fixture's two customer turns (test/integration/engine/service-episode.int.test.ts derives them)
    expect(turns.map((turn) => [turn.round, turn.speaker, turn.hang_up])).toEqual([[1, 'customer', false], [4, 'customer', true]]);
    expect(turns[0]!.content).toBe('full name: Bruce Torres. ZIP code: 82778. PIN: 9589. disputed invoice: INV-0000001-01.');
  });

  it('the episode page: the service score and the expected panel (outcome, customer facts, gold actions, final state)', async () => {
    const detail = (await api(`episode?id=${encodeURIComponent(episodeId)}`)) as { episode: Record<string, unknown>; expected: { panel: string; rows: Array<{ expected: string; value: string }> } };
    expect(detail.episode).toMatchObject({ task_id: 'svc-fixture-credit', style: 'service', passed: true });
    expect(detail.expected.panel).toBe('service');
    const rows = Object.fromEntries(detail.expected.rows.map((row) => [row.expected, row.value]));
    expect(rows.outcome).toBe('resolve (billing-dispute)');
    expect(rows['customer knows PIN']).toBe('9589 (when asked: pin)');
    expect(rows['gold action 2']).toMatch(/^issue_credit\(/);
    expect(rows['final state']).toBe('matches the gold actions replayed');
  });

  it('sandbox results prints the service report: success and its three parts per problem kind, and an `all` row', async () => {
    // One episode of the fixture (billing-dispute), passed: every rate 1, two writes (verify_identity, issue_credit).
    const printed = JSON.parse(sandboxOk('results', path.join(root, 'runs'), '--store', path.join(root, 'results.duckdb'), '--json')) as { reports: Record<string, Array<Record<string, unknown>>> };
    expect(printed.reports.service!.map((row) => [row.kind, row.episodes, row.success, row.state_match, row.values_said, row.policies_followed, row.writes_per_episode])).toEqual([
      ['billing-dispute', 1, 1, 1, 1, 1, 2],
      ['all', 1, 1, 1, 1, 1, 2],
    ]);
  });
});
