import { STYLES } from '../styles/registry.ts';

/**
 * The tables of the results store (`runs/results.duckdb`). Every row of the episode tables names its episode by
 * `episode_id` = the trajectory file's absolute path; `files` remembers each file's size and mtime so a re-index reads
 * only what changed. Scores come from the run's `summary.json` (written by `sandbox run`); an episode with none is
 * `graded = false`, never scored 0.
 */
/** The tables only one style fills (src/styles/<style>/index.ts, `store.tables`). */
export const STYLE_TABLES = STYLES.flatMap((style) => style.store?.tables ?? []);

/** Bump when a table changes: a store of another version is rebuilt from the run folders (it is only an index). */
export const STORE_VERSION = 8;

/** Every table and view, for dropping a store of another version. */
export const STORE_OBJECTS = ['episode_scores:VIEW', 'files', 'runs', 'run_stats', 'episodes', 'steps', 'verdicts', 'scores', 'constraint_facts', ...STYLE_TABLES.map((table) => table.name), 'divergences', 'saved_checks'];

export const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS files (
  path VARCHAR PRIMARY KEY,
  run_dir VARCHAR NOT NULL,
  kind VARCHAR NOT NULL,          -- trajectory | run | summary
  size BIGINT NOT NULL,
  mtime DOUBLE NOT NULL,
  error VARCHAR                   -- why the file could not be read (listed as unreadable), else NULL
);
CREATE TABLE IF NOT EXISTS runs (
  run_dir VARCHAR PRIMARY KEY,
  name VARCHAR NOT NULL,
  suite VARCHAR,
  model VARCHAR,
  judge VARCHAR,
  enforcement VARCHAR,
  repeats INTEGER,
  seed INTEGER,
  started_at VARCHAR,
  finished_at VARCHAR,
  planned_episodes INTEGER,
  identity JSON                   -- run.json as written (model, judge, task hashes… when present)
);
CREATE TABLE IF NOT EXISTS episodes (
  episode_id VARCHAR PRIMARY KEY,
  run_dir VARCHAR NOT NULL,
  file VARCHAR NOT NULL,
  task_id VARCHAR,
  repeat INTEGER,
  task_path VARCHAR,
  task_hash VARCHAR,
  model VARCHAR,
  enforcement VARCHAR,
  started_at VARCHAR,
  ended_at VARCHAR,
  status VARCHAR NOT NULL,        -- completed | limit | error | running (no episode-end yet)
  reason VARCHAR,
  final_answer VARCHAR,
  rounds INTEGER,
  tool_calls INTEGER,
  blocked_calls INTEGER,
  rejected_answers INTEGER,
  input_tokens BIGINT,
  output_tokens BIGINT,
  cost_usd DOUBLE,                -- NULL when some model call had tokens but no known price
  cost_known BOOLEAN,
  model_latency_ms DOUBLE,
  duration_ms DOUBLE,
  events INTEGER,
  truncated BOOLEAN               -- the last line was cut off (a crash or a write in progress) and was dropped
);
-- Every event of every trajectory, read once from the file by DuckDB's JSON reader; the episode-start and
-- episode-end fields (task, model, settings, counts, final answer) are kept on their rows and summed into episodes.
-- seq and type may be NULL only until the file is checked (such a file is unreadable and its rows are dropped).
CREATE TABLE IF NOT EXISTS steps (
  episode_id VARCHAR NOT NULL,
  seq INTEGER,
  type VARCHAR,
  round INTEGER,
  time VARCHAR,
  call_id VARCHAR,
  name VARCHAR,
  arguments VARCHAR,
  disposition VARCHAR,
  content VARCHAR,
  is_error BOOLEAN,
  kind VARCHAR,
  message JSON,
  usage JSON,
  latency_ms DOUBLE,
  step JSON,
  verdicts JSON,
  enforcement VARCHAR,
  duration_ms DOUBLE,
  execution JSON,
  status VARCHAR,
  reason VARCHAR,
  constraint_status JSON,
  messages JSON,                  -- episode-start: the system and user messages the model starts from
  task_id VARCHAR,                -- episode-start
  task_path VARCHAR,
  task_hash VARCHAR,
  model VARCHAR,
  settings JSON,
  final_answer VARCHAR,           -- episode-end
  counts JSON,
  tools JSON,                     -- episode-start: the tools offered to the model (name, description, parameters)
  user_model VARCHAR,             -- episode-start: the simulated user's spec (service episodes)
  speaker VARCHAR,                -- user-turn: who spoke (the customer)
  hang_up BOOLEAN,                -- user-turn: the user ended the conversation
  -- what search scans, lower-cased once at index time (src/viewer/search.ts): the event's text columns as stored
  -- (content, arguments, and message/messages as JSON text); NULL for a tool-call, whose call its model response holds
  search_text VARCHAR
);
CREATE TABLE IF NOT EXISTS verdicts (
  episode_id VARCHAR NOT NULL,
  seq INTEGER NOT NULL,
  round INTEGER,
  constraint_id VARCHAR,
  category VARCHAR,
  effect VARCHAR,
  call_id VARCHAR,
  message VARCHAR,
  enforcement VARCHAR
);
CREATE TABLE IF NOT EXISTS scores (
  run_dir VARCHAR NOT NULL,
  task_id VARCHAR NOT NULL,
  repeat INTEGER NOT NULL,
  style VARCHAR,
  grade_error VARCHAR,
  passed BOOLEAN,
  metrics JSON,
  details JSON,
  sr DOUBLE,                      -- CCTU
  psr DOUBLE,
  accuracy DOUBLE,                -- DDR checklist accuracy
  grp VARCHAR                     -- CCTU structure, DDR scenario, plan kind / shape
);
CREATE TABLE IF NOT EXISTS constraint_facts (
  run_dir VARCHAR NOT NULL,
  task_id VARCHAR NOT NULL,
  repeat INTEGER NOT NULL,
  constraint_id VARCHAR,
  category VARCHAR,
  status VARCHAR                  -- satisfied | soft-satisfied | unsatisfied | error
);
${STYLE_TABLES.map((table) => table.ddl).join('\n')}
-- Replay and validate divergences saved beside a trajectory (sandbox replay|validate --save): one row per divergence.
CREATE TABLE IF NOT EXISTS divergences (
  report VARCHAR NOT NULL,        -- the saved file (<task>.<repeat>.replay.json or .validate.json)
  episode_id VARCHAR NOT NULL,    -- the trajectory it is about
  source VARCHAR NOT NULL,        -- replay | validate
  created_at VARCHAR,
  constraints VARCHAR,            -- validate: the constraints file applied instead of the task's, else NULL
  seq INTEGER,
  kind VARCHAR,
  call_id VARCHAR,
  detail VARCHAR,
  recorded JSON,
  replayed JSON
);
-- Every saved replay/validate report (sandbox replay|validate --save), with how many divergences it found (0: none).
CREATE TABLE IF NOT EXISTS saved_checks (
  report VARCHAR NOT NULL,
  episode_id VARCHAR NOT NULL,
  source VARCHAR NOT NULL,        -- replay | validate
  created_at VARCHAR,
  constraints VARCHAR,
  divergences INTEGER NOT NULL
);
-- The runs page's figures per run, recomputed for the runs an index touched (the page never aggregates episodes).
CREATE TABLE IF NOT EXISTS run_stats (
  run_dir VARCHAR PRIMARY KEY,
  started_at VARCHAR,
  enforcement VARCHAR,
  episodes INTEGER,
  running INTEGER,
  graded INTEGER,
  pass_rate DOUBLE,
  sr DOUBLE,
  psr DOUBLE,
  accuracy DOUBLE,
  cost_usd DOUBLE,
  styles VARCHAR,
  unreadable INTEGER
);
-- One row per episode with its score (NULL when not graded) and the grouping the leaderboard uses.
CREATE OR REPLACE VIEW episode_scores AS
SELECT e.*,
  s.style,
  s.passed,
  s.grade_error,
  s.passed IS NOT NULL AS graded,
  s.sr,
  s.psr,
  s.accuracy,
  s.grp AS "group",
  s.metrics,
  s.details
FROM episodes e
LEFT JOIN scores s ON s.run_dir = e.run_dir AND s.task_id = e.task_id AND s.repeat = e.repeat;
`;

/** The columns DuckDB's JSON reader reads from each trajectory line (src/schemas/event.ts); others are ignored. */
export const EVENT_COLUMNS: Record<string, string> = {
  type: 'VARCHAR',
  seq: 'INTEGER',
  time: 'VARCHAR',
  taskId: 'VARCHAR',
  taskPath: 'VARCHAR',
  // the task content hash (src/schemas/event.ts; tolerated absent)
  taskSha256: 'VARCHAR',
  model: 'VARCHAR',
  settings: 'JSON',
  messages: 'JSON',
  round: 'INTEGER',
  message: 'JSON',
  usage: 'JSON',
  latencyMs: 'DOUBLE',
  step: 'JSON',
  verdicts: 'JSON',
  enforcement: 'VARCHAR',
  durationMs: 'DOUBLE',
  callId: 'VARCHAR',
  name: 'VARCHAR',
  arguments: 'VARCHAR',
  disposition: 'VARCHAR',
  content: 'VARCHAR',
  isError: 'BOOLEAN',
  kind: 'VARCHAR',
  execution: 'JSON',
  status: 'VARCHAR',
  reason: 'VARCHAR',
  finalAnswer: 'VARCHAR',
  counts: 'JSON',
  constraintStatus: 'JSON',
  tools: 'JSON',
  userModel: 'VARCHAR',
  speaker: 'VARCHAR',
  hangUp: 'BOOLEAN',
};

/** The event types a trajectory may hold (src/schemas/event.ts); any other makes the file unreadable. */
export const EVENT_TYPES = ['episode-start', 'model-response', 'constraint-check', 'tool-call', 'tool-result', 'feedback', 'plan-execution', 'user-turn', 'episode-end'];
