import { rm } from 'node:fs/promises';
import { DuckDBInstance } from '@duckdb/node-api';
import { SandboxError } from '../../src/sandbox-error.ts';
import { accountStatements } from './accounts/build-accounts.ts';
import { ACCOUNT_TABLES } from './accounts/columns.ts';
import { applyColumnComments } from './columns.ts';
import { EFFECTS as E } from './effects.ts';
import { transcriptTextCtes, type TranscriptNoise } from './transcript-text.ts';
import {
  CALL_DRIVERS, CHANNELS, DAYS, FIRST_DAY, FIRST_NAMES, HOUR_WEIGHTS, LAST_NAMES, RUBRIC_ITEMS, SEGMENTS, SHIFT_RESIDUES, SITES,
  TEAMS, TIME_ZONES, WEEKDAY_WEIGHTS, type Weighted,
} from './vocabulary.ts';

export interface BuildContactCenterOptions extends TranscriptNoise {
  /** Where the .duckdb file goes (replaced if it exists). */
  path: string;
  /** Number of calls (default 5,000). */
  calls?: number;
  /** Seed: the same seed and size give the same database. */
  seed?: number;
  /** DuckDB threads for the build (default: DuckDB's own choice). */
  threads?: number;
}

export interface BuildContactCenterResult {
  path: string;
  seconds: number;
  rows: Record<string, number>;
}

export const DEFAULT_CALLS = 5_000;
export const DEFAULT_SEED = 1;

/**
 * Builds the contact-center warehouse: agents, customers, calls, qa_evaluations, key_moments and
 * transcript_turns, with the planted patterns of patterns.ts; then the customers' account state in the schema
 * `accounts` (accounts/build-accounts.ts). Everything is generated inside DuckDB from
 * `range()` with `hash(row, seed, stream)` as the random source, so a million calls need no per-row
 * round trip and the same (seed, calls) gives the same rows.
 */
export async function buildContactCenter(options: BuildContactCenterOptions): Promise<BuildContactCenterResult> {
  const calls = options.calls ?? DEFAULT_CALLS;
  const seed = options.seed ?? DEFAULT_SEED;
  if (!Number.isInteger(calls) || calls < 100 || calls > 9_999_999) {
    throw new SandboxError('invalid-input', `calls must be an integer from 100 to 9,999,999 (got ${calls})`);
  }
  if (!Number.isInteger(seed) || seed < 0) throw new SandboxError('invalid-input', `seed must be a non-negative integer (got ${seed})`);
  const started = performance.now();
  await rm(options.path, { force: true });
  await rm(`${options.path}.wal`, { force: true });
  const instance = await DuckDBInstance.create(options.path, options.threads ? { threads: String(options.threads) } : {});
  const connection = await instance.connect();
  try {
    for (const statement of buildStatements(calls, seed, options)) await connection.run(statement);
    // The service episodes' account state, in a schema of its own after the warehouse (accounts/build-accounts.ts).
    for (const statement of accountStatements()) await connection.run(statement);
    const runner = (sql: string) => connection.run(sql).then(() => undefined);
    await applyColumnComments(runner);
    await applyColumnComments(runner, ACCOUNT_TABLES, 'accounts');
    const rows: Record<string, number> = {};
    for (const table of ['agents', 'customers', 'calls', 'qa_evaluations', 'key_moments', 'transcript_turns']) {
      const reader = await connection.runAndReadAll(`SELECT count(*)::INTEGER FROM ${table}`);
      rows[table] = Number(reader.getRows()[0]?.[0]);
    }
    await connection.run('CHECKPOINT');
    return { path: options.path, seconds: (performance.now() - started) / 1000, rows };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

const quote = (value: string): string => `'${value.replaceAll("'", "''")}'`;
const list = (values: readonly string[]): string => `[${values.map(quote).join(', ')}]`;

/** CASE over cumulative weights: `u` uniform in [0, 1) picks a value with the given weights. */
function weighted(u: string, pairs: Weighted): string {
  const total = pairs.reduce((sum, [, weight]) => sum + weight, 0);
  let cumulative = 0;
  const branches = pairs.slice(0, -1).map(([value, weight]) => {
    cumulative += weight / total;
    return `WHEN ${u} < ${cumulative.toFixed(6)} THEN ${quote(value)}`;
  });
  return `CASE ${branches.join(' ')} ELSE ${quote(pairs.at(-1)![0])} END`;
}

function driverCase(field: 'queue' | 'resolution' | 'talk', driver = 'driver'): string {
  const value = (entry: (typeof CALL_DRIVERS)[number]) => (typeof entry[field] === 'string' ? quote(entry[field] as string) : String(entry[field]));
  return `CASE ${driver} ${CALL_DRIVERS.map((entry) => `WHEN ${quote(entry.driver)} THEN ${value(entry)}`).join(' ')} END`;
}

function mapCase(expression: string, map: Record<string, number>, otherwise: number): string {
  const branches = Object.entries(map).map(([key, value]) => `WHEN ${quote(key)} THEN ${value}`);
  return branches.length === 0 ? String(otherwise) : `CASE ${expression} ${branches.join(' ')} ELSE ${otherwise} END`;
}

/** The build, as a list of SQL statements (exported for the unit test that checks determinism of the text). */
export function buildStatements(calls: number, seed: number, noise: TranscriptNoise = {}): string[] {
  // Agents come in blocks of ten so a call can be routed to an on-shift agent: residue (n-1) mod 10 is the shift.
  const agents = Math.min(9_990, Math.max(50, Math.ceil(calls / 200 / 10) * 10));
  const customers = Math.max(200, Math.round(calls / 3));
  const blocks = agents / 10;
  const shiftOf = (residue: string) =>
    `CASE WHEN ${residue} < ${SHIFT_RESIDUES.day.length} THEN 'day' WHEN ${residue} < ${SHIFT_RESIDUES.day.length + SHIFT_RESIDUES.evening.length} THEN 'evening' ELSE 'night' END`;
  const hourPairs: Weighted = HOUR_WEIGHTS.map((weight, hour) => [String(hour), weight]);
  const driverPairs: Weighted = CALL_DRIVERS.map((entry) => [entry.driver, entry.weight]);
  const weekday = Object.entries(WEEKDAY_WEIGHTS).map(([day, weight]) => `WHEN ${day} THEN ${weight}`).join(' ');
  const clamp = (expression: string, low: number, high: number) => `least(${high}, greatest(${low}, ${expression}))`;

  return [
    `SET preserve_insertion_order = false`,
    // u(i, k): a uniform number in [0, 1) for row i and random stream k; z(i, k): a standard normal (Box–Muller).
    `CREATE OR REPLACE TEMP MACRO u(i, k) AS hash(i::BIGINT * 16384 + k + ${seed} * 17592186044416) / 18446744073709551616.0`,
    `CREATE OR REPLACE TEMP MACRO z(i, k) AS sqrt(-2 * ln(greatest(u(i, k), 1e-12))) * cos(2 * pi() * u(i, k + 7919))`,
    `CREATE OR REPLACE TEMP MACRO pick(options, i, k) AS options[1 + floor(u(i, k) * len(options))::INTEGER]`,

    `CREATE TABLE agents AS
     SELECT 'A-' || lpad(n::VARCHAR, 4, '0') AS agent_id,
            pick(${list(FIRST_NAMES)}, n, 1) || ' ' || pick(${list(LAST_NAMES)}, n, 2) AS name,
            ${list(TEAMS)}[1 + (n - 1) % ${TEAMS.length}] AS team,
            ${weighted('u(n, 3)', SITES)} AS site,
            (CASE WHEN n = ${E.outlierAgentNumber} THEN 28 ELSE 1 + floor(u(n, 4) * 96) END)::INTEGER AS tenure_months,
            ${shiftOf('(n - 1) % 10')} AS shift
     FROM range(1, ${agents + 1}) r(n)`,

    `CREATE TABLE customers AS
     SELECT 'CU-' || lpad(n::VARCHAR, 7, '0') AS customer_id,
            ${weighted('u(n, 11)', SEGMENTS)} AS segment,
            (1 + floor(u(n, 12) * 120))::INTEGER AS tenure_months
     FROM range(1, ${customers + 1}) r(n)`,

    // Days with their volume weights, as a cumulative distribution for an ASOF lookup.
    `CREATE TEMP TABLE days AS
     WITH d AS (
       SELECT DATE '${FIRST_DAY}' + n::INTEGER AS day, CASE isodow(DATE '${FIRST_DAY}' + n::INTEGER) ${weekday} END AS weight
       FROM range(${DAYS}) r(n))
     SELECT day, (sum(weight) OVER (ORDER BY day) - weight) / sum(weight) OVER () AS cumulative_start FROM d`,

    `CREATE TEMP TABLE call_draws AS
     SELECT n, u(n, 20) AS u_day, ${weighted('u(n, 21)', driverPairs)} AS driver,
            ${weighted('u(n, 22)', TIME_ZONES)} AS time_zone, ${weighted('u(n, 23)', CHANNELS)} AS channel,
            (${weighted('u(n, 24)', hourPairs)})::INTEGER AS hour
     FROM range(1, ${calls + 1}) r(n)`,

    `CREATE TEMP TABLE stage_a AS
     SELECT c.*,
            CASE WHEN c.driver = 'outage' AND u(c.n, 25) < ${E.outageShareInWindow}
                 THEN DATE '${E.outageStart}' + floor(u(c.n, 26) * ${E.outageDays})::INTEGER ELSE d.day END AS day,
            CASE WHEN c.hour BETWEEN 8 AND 13 THEN 'day' WHEN c.hour BETWEEN 14 AND 19 THEN 'evening' ELSE 'night' END AS call_shift
     FROM call_draws c ASOF JOIN days d ON c.u_day >= d.cumulative_start`,

    // Route each call to an agent of the shift its hour falls in; customers are skewed so some call often.
    `CREATE TEMP TABLE stage_b AS
     SELECT s.*,
            1 + 10 * floor(u(s.n, 27) * ${blocks})::INTEGER + CASE s.call_shift
              WHEN 'day' THEN floor(u(s.n, 28) * ${SHIFT_RESIDUES.day.length})::INTEGER
              WHEN 'evening' THEN ${SHIFT_RESIDUES.day.length} + floor(u(s.n, 28) * ${SHIFT_RESIDUES.evening.length})::INTEGER
              ELSE ${SHIFT_RESIDUES.day.length + SHIFT_RESIDUES.evening.length} + floor(u(s.n, 28) * ${SHIFT_RESIDUES.night.length})::INTEGER END AS agent_number,
            1 + floor(pow(u(s.n, 29), 1.4) * ${customers})::INTEGER AS customer_number,
            CASE WHEN u(s.n, 30) < 0.7 THEN 0 WHEN u(s.n, 30) < 0.9 THEN 1 WHEN u(s.n, 30) < 0.97 THEN 2 ELSE 3 END AS transfers
     FROM stage_a s`,

    `CREATE TEMP TABLE stage_c AS
     SELECT s.*, a.agent_id, a.team, a.site, a.shift, a.tenure_months AS agent_tenure, split_part(a.name, ' ', 1) AS agent_first_name,
            cu.customer_id, cu.segment,
            u(s.n, 31) < ${clamp(
              `${E.escalationBase} * ${mapCase('s.time_zone', E.escalationByTimeZone, 1)}
               * CASE WHEN a.tenure_months < ${E.newAgentTenureMonths} THEN ${E.newAgentEscalationFactor} ELSE 1 END
               * CASE WHEN s.agent_number = ${E.outlierAgentNumber} THEN ${E.outlierEscalationFactor} ELSE 1 END
               * CASE s.driver WHEN 'cancellation' THEN 1.5 WHEN 'billing_dispute' THEN 1.3 ELSE 1 END`, 0, 0.9)} AS escalated,
            s.driver IN ('billing_dispute', 'refund_request', 'cancellation') AND u(s.n, 32) < ${E.refundOfferRate} AS has_refund,
            (s.driver = 'cancellation' AND u(s.n, 33) < 0.8) OR (s.driver = 'billing_dispute' AND u(s.n, 33) < 0.15) AS has_threat,
            z(s.n, 34) AS z_duration, z(s.n, 35) AS z_hold, z(s.n, 36) AS z_sentiment, z(s.n, 37) AS z_sentiment_end, z(s.n, 38) AS z_csat
     FROM stage_b s JOIN agents a ON a.agent_id = 'A-' || lpad(s.agent_number::VARCHAR, 4, '0')
     JOIN customers cu ON cu.customer_id = 'CU-' || lpad(s.customer_number::VARCHAR, 7, '0')`,

    `CREATE TEMP TABLE stage_d AS
     SELECT s.*,
            u(s.n, 40) < CASE WHEN s.driver = 'cancellation'
                 THEN CASE WHEN s.has_refund THEN ${E.cancellationResolvedWithRefund} ELSE ${E.cancellationResolvedWithoutRefund} END
                 ELSE ${driverCase('resolution', 's.driver')} END
              * ${list(E.transferResolutionFactors.map(String))}[s.transfers + 1]::DOUBLE
              * CASE WHEN s.escalated THEN 0.6 ELSE 1 END AS resolved,
            greatest(60, round(${driverCase('talk', 's.driver')} * exp(0.35 * s.z_duration)
              * CASE s.channel WHEN 'chat' THEN 1.3 WHEN 'callback' THEN 0.9 ELSE 1 END
              * CASE WHEN s.site = '${E.fastSite}' THEN ${E.fastSiteDurationFactor} ELSE 1 END
              * CASE WHEN s.segment = '${E.slowSegment}' THEN ${E.slowSegmentDurationFactor} ELSE 1 END
              * (1 + 0.35 * s.transfers)))::INTEGER AS talk_s,
            CASE WHEN u(s.n, 41) < 0.35 THEN 0 ELSE round(70 * exp(0.6 * s.z_hold)
              * CASE WHEN s.shift = 'night' THEN ${E.nightHoldFactor} ELSE 1 END * (1 + 0.8 * s.transfers))::INTEGER END AS hold_s,
            round(${clamp(`-0.15 + 0.3 * s.z_sentiment - CASE WHEN s.driver IN ('billing_dispute', 'outage', 'cancellation') THEN 0.2 ELSE 0 END`, -1, 1)}, 2) AS sentiment_start
     FROM stage_c s`,

    `CREATE TEMP TABLE stage AS
     SELECT s.*,
            s.talk_s + s.hold_s AS duration_s,
            s.hold_s > 0 AS has_hold,
            round(${clamp(`s.sentiment_start + CASE WHEN s.resolved THEN ${E.sentimentShiftResolved} ELSE ${E.sentimentShiftUnresolved} END + 0.15 * s.z_sentiment_end - CASE WHEN s.escalated THEN 0.15 ELSE 0 END`, -1, 1)}, 2) AS sentiment_end,
            CASE WHEN u(s.n, 42) < ${mapCase('s.channel', E.csatResponseByChannel, 0.5)}
                 THEN ${clamp(`round(${E.csatBase} - CASE WHEN s.resolved THEN 0 ELSE ${E.csatUnresolvedPenalty} END
                   - CASE WHEN s.driver = '${E.lowCsatDriver}' THEN ${E.lowCsatPenalty} ELSE 0 END
                   - CASE WHEN s.hold_s > ${E.longHoldSeconds} THEN ${E.longHoldCsatPenalty} ELSE 0 END
                   - CASE WHEN s.escalated THEN ${E.csatEscalatedPenalty} ELSE 0 END
                   + CASE WHEN s.segment = 'premium' THEN ${E.premiumCsatBonus} ELSE 0 END + 0.7 * s.z_csat)`, 1, 5)}::INTEGER END AS csat,
            'C-' || lpad(s.n::VARCHAR, 7, '0') AS call_id,
            s.day + to_seconds(s.hour * 3600 + floor(u(s.n, 43) * 3600)::INTEGER) AS started_at
     FROM stage_d s`,

    `CREATE TABLE calls AS
     SELECT call_id, started_at, time_zone, ${driverCase('queue')} AS queue, channel, driver AS call_driver, agent_id, customer_id,
            duration_s, hold_s, transfers, resolved, escalated, sentiment_start, sentiment_end, csat
     FROM stage ORDER BY n`,

    // A transcript is 14 slots (0 greeting … 13 goodbye); a slot is dropped when the call's facts say it did not
    // happen, and turn_index counts only the slots kept, so key_moments point at the same turn as the transcript.
    `CREATE OR REPLACE TEMP MACRO turn_of(slot, threat, hold, refund, transfers, escalated) AS
       slot - (slot > 4 AND NOT threat)::INTEGER - (slot > 5 AND NOT hold)::INTEGER - (slot > 7 AND NOT refund)::INTEGER
       - (slot > 8 AND transfers = 0)::INTEGER - CASE WHEN escalated THEN 0 ELSE (slot > 9)::INTEGER + (slot > 10)::INTEGER END`,
    `CREATE OR REPLACE TEMP MACRO kept(slot, threat, hold, refund, transfers, escalated) AS
       (slot <> 4 OR threat) AND (slot <> 5 OR hold) AND (slot <> 7 OR refund) AND (slot <> 8 OR transfers > 0) AND (slot NOT IN (9, 10) OR escalated)`,

    `CREATE TABLE key_moments AS
     SELECT s.call_id, turn_of(l.slot, s.has_threat, s.has_hold, s.has_refund, s.transfers, s.escalated) AS turn_index,
            CASE l.slot WHEN 4 THEN 'cancellation_threat' WHEN 5 THEN 'hold_placed' WHEN 7 THEN 'refund_offer' WHEN 8 THEN 'transfer'
                        WHEN 9 THEN 'escalation_request' ELSE 'resolution_confirmed' END AS moment
     FROM stage s CROSS JOIN (VALUES (4), (5), (7), (8), (9), (11)) l(slot)
     WHERE kept(l.slot, s.has_threat, s.has_hold, s.has_refund, s.transfers, s.escalated) AND (l.slot <> 11 OR s.resolved)
`,

    `CREATE TABLE transcript_turns AS
     WITH base AS (
       SELECT s.call_id, s.n, s.driver, s.channel, s.agent_first_name, s.customer_number, s.started_at, s.sentiment_start, s.sentiment_end,
              s.resolved, s.has_hold, s.hold_s, s.transfers, l.slot,
              turn_of(l.slot, s.has_threat, s.has_hold, s.has_refund, s.transfers, s.escalated) AS turn_index,
              (s.duration_s - s.hold_s) / (14 - (NOT s.has_threat)::INTEGER - (NOT s.has_hold)::INTEGER - (NOT s.has_refund)::INTEGER
                - (s.transfers = 0)::INTEGER - CASE WHEN s.escalated THEN 0 ELSE 2 END) AS per_turn,
              CASE WHEN s.has_hold THEN 4 + s.has_threat::INTEGER ELSE 1000 END AS hold_turn
       FROM stage s CROSS JOIN range(14) l(slot)
       WHERE kept(l.slot, s.has_threat, s.has_hold, s.has_refund, s.transfers, s.escalated)),
     ${transcriptTextCtes(noise)}
     SELECT call_id, turn_index,
            CASE WHEN slot IN (1, 3, 4, 9, 12) THEN 'customer' ELSE 'agent' END AS speaker,
            round(turn_index * per_turn + CASE WHEN turn_index > hold_turn THEN hold_s ELSE 0 END, 1) AS start_s,
            round(turn_index * per_turn + CASE WHEN turn_index > hold_turn THEN hold_s ELSE 0 END + 0.92 * per_turn, 1) AS end_s,
            text
     FROM noisy`,

    `CREATE TABLE qa_evaluations AS
     WITH sampled AS (
       SELECT s.*, 'E-' || lpad(s.n::VARCHAR, 7, '0') AS evaluation_id,
              s.started_at + to_seconds((86400 * (1 + floor(u(s.n, 50) * 5)) + floor(u(s.n, 51) * 28800))::INTEGER) AS evaluated_at
       FROM stage s WHERE u(s.n, 52) < ${E.qaSampleRate}),
     items AS (SELECT * FROM (VALUES ${RUBRIC_ITEMS.map((entry, index) => `(${index}, ${quote(entry.item)}, ${entry.base})`).join(', ')}) v(item_number, rubric_item, base))
     SELECT evaluation_id, call_id, agent_id, evaluated_at, rubric_item,
            ${clamp(`round(base
              + CASE WHEN rubric_item = 'resolution' THEN CASE WHEN resolved THEN 0.4 ELSE -0.6 END ELSE 0 END
              - CASE WHEN team = '${E.qaDropTeam}' AND evaluated_at >= TIMESTAMP '${E.qaDropDate}' THEN ${E.qaDrop} ELSE 0 END
              - CASE WHEN agent_id = '${E.outlierAgent}' AND rubric_item = 'empathy' THEN ${E.outlierEmpathyDrop} ELSE 0 END
              + 0.7 * z(n * 8 + item_number, 53))`, 1, 5)}::INTEGER AS score
     FROM sampled CROSS JOIN items
     ORDER BY evaluation_id, item_number`,
  ];
}
