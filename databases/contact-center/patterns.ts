import { EFFECTS as E } from './effects.ts';

/** One planted pattern: what is true in the data, how it was planted, and the SQL that measures it. */
export interface PlantedPattern {
  id: string;
  title: string;
  /** The finding, as an analyst would state it. */
  finding: string;
  /** The generator's parameter behind it (effects.ts). */
  planted: string;
  tables: string[];
  columns: string[];
  /** A read-only query whose result is the true value on any build (any size, any seed). */
  sql: string;
}

/**
 * The planted patterns of the contact-center warehouse: ground truth for DDR checklists, planning questions
 * and labelled queries. Their measured values on the default build are in README.md; on another build,
 * run `sql` (or measurePatterns) to get them.
 */
export const PLANTED_PATTERNS: PlantedPattern[] = [
  {
    id: 'escalation-by-time-zone',
    title: 'Escalation rate by time zone',
    finding: 'Callers in America/Los_Angeles are escalated about 2.5 times as often as callers in other time zones.',
    planted: `escalation probability × ${E.escalationByTimeZone['America/Los_Angeles']} for America/Los_Angeles`,
    tables: ['calls'], columns: ['calls.time_zone', 'calls.escalated'],
    sql: `SELECT time_zone, round(avg(escalated::INTEGER), 4) AS escalation_rate, count(*) AS calls FROM calls GROUP BY time_zone ORDER BY escalation_rate DESC`,
  },
  {
    id: 'qa-drop-after-date',
    title: `Team ${E.qaDropTeam}'s QA scores drop after ${E.qaDropDate}`,
    finding: `Team ${E.qaDropTeam}'s average QA score falls by about ${E.qaDrop} points for evaluations from ${E.qaDropDate}; other teams stay flat.`,
    planted: `every rubric score −${E.qaDrop} for team ${E.qaDropTeam} when evaluated_at ≥ ${E.qaDropDate}`,
    tables: ['qa_evaluations', 'agents'], columns: ['qa_evaluations.score', 'qa_evaluations.evaluated_at', 'agents.team'],
    sql: `SELECT a.team, q.evaluated_at >= TIMESTAMP '${E.qaDropDate}' AS after_drop_date, round(avg(q.score), 3) AS mean_score, count(*) AS scores
          FROM qa_evaluations q JOIN agents a USING (agent_id) GROUP BY ALL ORDER BY a.team, after_drop_date`,
  },
  {
    id: 'low-csat-driver',
    title: `${E.lowCsatDriver} has the lowest CSAT`,
    finding: `Calls driven by ${E.lowCsatDriver} have by far the lowest mean CSAT (about 2 of 5, against 3.5–3.8 for other drivers).`,
    planted: `CSAT −${E.lowCsatPenalty} for ${E.lowCsatDriver}`,
    tables: ['calls'], columns: ['calls.call_driver', 'calls.csat'],
    sql: `SELECT call_driver, round(avg(csat), 3) AS mean_csat, count(csat) AS responses FROM calls GROUP BY call_driver ORDER BY mean_csat`,
  },
  {
    id: 'sentiment-unresolved',
    title: 'Sentiment turns negative in unresolved calls',
    finding: 'Sentiment falls from start to end of unresolved calls (mean change about −0.35) and rises in resolved ones (about +0.3).',
    planted: `sentiment_end = sentiment_start ${E.sentimentShiftUnresolved} (unresolved) or +${E.sentimentShiftResolved} (resolved), plus noise, clamped to [−1, 1]`,
    tables: ['calls'], columns: ['calls.resolved', 'calls.sentiment_start', 'calls.sentiment_end'],
    sql: `SELECT resolved, round(avg(sentiment_end - sentiment_start), 3) AS mean_sentiment_change, round(avg(sentiment_end), 3) AS mean_sentiment_end, count(*) AS calls FROM calls GROUP BY resolved ORDER BY resolved`,
  },
  {
    id: 'night-shift-hold',
    title: 'Night shift holds longer',
    finding: 'Night-shift agents keep callers on hold about 1.6 times as long as day and evening agents.',
    planted: `hold time × ${E.nightHoldFactor} for night-shift agents`,
    tables: ['calls', 'agents'], columns: ['calls.hold_s', 'agents.shift'],
    sql: `SELECT a.shift, round(avg(c.hold_s), 1) AS mean_hold_s, round(avg(c.hold_s) FILTER (WHERE c.hold_s > 0), 1) AS mean_hold_s_when_held, count(*) AS calls
          FROM calls c JOIN agents a USING (agent_id) GROUP BY a.shift ORDER BY mean_hold_s DESC`,
  },
  {
    id: 'transfers-hurt-resolution',
    title: 'Transfers lower resolution',
    finding: 'First-contact resolution falls with each transfer: calls transferred twice or more resolve far less often than calls never transferred.',
    planted: `resolution probability × ${E.transferResolutionFactors.join(' / ')} for 0 / 1 / 2 / 3 transfers`,
    tables: ['calls'], columns: ['calls.transfers', 'calls.resolved'],
    sql: `SELECT transfers, round(avg(resolved::INTEGER), 4) AS resolution_rate, count(*) AS calls FROM calls GROUP BY transfers ORDER BY transfers`,
  },
  {
    id: 'monday-volume',
    title: 'Mondays are busiest, weekends quietest',
    finding: 'Mondays carry about 1.4 times the volume of other weekdays; Saturdays about half and Sundays about a third.',
    planted: 'day weights Mon 1.4, Tue–Fri 1.0, Sat 0.5, Sun 0.35',
    tables: ['calls'], columns: ['calls.started_at'],
    sql: `SELECT isodow(started_at) AS iso_day_of_week, dayname(started_at) AS day_name, round(count(*) / count(DISTINCT started_at::DATE), 1) AS calls_per_day
          FROM calls GROUP BY ALL ORDER BY iso_day_of_week`,
  },
  {
    id: 'outage-spike',
    title: `Outage spike from ${E.outageStart}`,
    finding: `Outage calls spike for ${E.outageDays} days from ${E.outageStart}: about 8 times the usual daily outage volume.`,
    planted: `${E.outageShareInWindow * 100} % of outage calls placed in ${E.outageStart} + ${E.outageDays} days`,
    tables: ['calls'], columns: ['calls.call_driver', 'calls.started_at'],
    sql: `SELECT started_at::DATE BETWEEN DATE '${E.outageStart}' AND DATE '${E.outageStart}' + ${E.outageDays - 1} AS in_outage_window,
                 round(count(*) / count(DISTINCT started_at::DATE), 2) AS outage_calls_per_day
          FROM calls WHERE call_driver = 'outage' GROUP BY ALL ORDER BY in_outage_window`,
  },
  {
    id: 'fast-site',
    title: `${E.fastSite} has the shortest handle time`,
    finding: `Agents at ${E.fastSite} have the shortest average handle time, about 15 % below the other sites.`,
    planted: `talk time × ${E.fastSiteDurationFactor} at ${E.fastSite}`,
    tables: ['calls', 'agents'], columns: ['calls.duration_s', 'agents.site'],
    sql: `SELECT a.site, round(avg(c.duration_s), 1) AS mean_duration_s, count(*) AS calls FROM calls c JOIN agents a USING (agent_id) GROUP BY a.site ORDER BY mean_duration_s`,
  },
  {
    id: 'enterprise-duration',
    title: `${E.slowSegment} calls are longest`,
    finding: `Calls from ${E.slowSegment} customers last about 30 % longer than calls from other segments.`,
    planted: `talk time × ${E.slowSegmentDurationFactor} for segment ${E.slowSegment}`,
    tables: ['calls', 'customers'], columns: ['calls.duration_s', 'customers.segment'],
    sql: `SELECT cu.segment, round(avg(c.duration_s), 1) AS mean_duration_s, count(*) AS calls FROM calls c JOIN customers cu USING (customer_id) GROUP BY cu.segment ORDER BY mean_duration_s DESC`,
  },
  {
    id: 'refund-saves-cancellations',
    title: 'A refund offer saves cancellation calls',
    finding: `Cancellation calls with a refund offer are resolved (the customer kept) about ${E.cancellationResolvedWithRefund * 100} % of the time before transfer/escalation effects, against about ${E.cancellationResolvedWithoutRefund * 100} % without one.`,
    planted: `cancellation resolution ${E.cancellationResolvedWithRefund} with refund_offer, ${E.cancellationResolvedWithoutRefund} without`,
    tables: ['calls', 'key_moments'], columns: ['calls.call_driver', 'calls.resolved', 'key_moments.moment'],
    sql: `SELECT EXISTS (SELECT 1 FROM key_moments k WHERE k.call_id = c.call_id AND k.moment = 'refund_offer') AS refund_offered,
                 round(avg(c.resolved::INTEGER), 4) AS resolution_rate, count(*) AS calls
          FROM calls c WHERE c.call_driver = 'cancellation' GROUP BY ALL ORDER BY refund_offered`,
  },
  {
    id: 'csat-response-by-channel',
    title: 'Chat customers rarely answer the survey',
    finding: 'About 60 % of voice, 50 % of callback and only 30 % of chat contacts have a CSAT score.',
    planted: `survey response rate voice ${E.csatResponseByChannel.voice}, callback ${E.csatResponseByChannel.callback}, chat ${E.csatResponseByChannel.chat}`,
    tables: ['calls'], columns: ['calls.channel', 'calls.csat'],
    sql: `SELECT channel, round(avg((csat IS NOT NULL)::INTEGER), 4) AS survey_response_rate, count(*) AS calls FROM calls GROUP BY channel ORDER BY survey_response_rate DESC`,
  },
  {
    id: 'long-hold-csat',
    title: `Holds over ${E.longHoldSeconds} s cost CSAT`,
    finding: `Calls with more than ${E.longHoldSeconds} s on hold score about one CSAT point lower.`,
    planted: `CSAT −${E.longHoldCsatPenalty} when hold_s > ${E.longHoldSeconds}`,
    tables: ['calls'], columns: ['calls.hold_s', 'calls.csat'],
    sql: `SELECT hold_s > ${E.longHoldSeconds} AS long_hold, round(avg(csat), 3) AS mean_csat, count(csat) AS responses FROM calls GROUP BY ALL ORDER BY long_hold`,
  },
  {
    id: 'compliance-lowest-rubric',
    title: 'compliance_disclosure is the weakest rubric item',
    finding: 'compliance_disclosure has the lowest mean QA score of all rubric items (about 3 of 5), in every team.',
    planted: 'rubric base scores greeting 4.4, verification 4.2, empathy 3.9, resolution 3.9 (±), compliance_disclosure 3.0',
    tables: ['qa_evaluations'], columns: ['qa_evaluations.rubric_item', 'qa_evaluations.score'],
    sql: `SELECT rubric_item, round(avg(score), 3) AS mean_score, count(*) AS scores FROM qa_evaluations GROUP BY rubric_item ORDER BY mean_score`,
  },
  {
    id: 'password-reset-resolution',
    title: 'password_reset resolves best',
    finding: 'password_reset calls have the highest first-contact resolution of all drivers; billing_dispute and cancellation the lowest.',
    planted: 'base resolution per driver (vocabulary.ts), password_reset 0.96',
    tables: ['calls'], columns: ['calls.call_driver', 'calls.resolved'],
    sql: `SELECT call_driver, round(avg(resolved::INTEGER), 4) AS resolution_rate, count(*) AS calls FROM calls GROUP BY call_driver ORDER BY resolution_rate DESC`,
  },
  {
    id: 'new-agent-escalation',
    title: `Agents under ${E.newAgentTenureMonths} months escalate more`,
    finding: `Agents with under ${E.newAgentTenureMonths} months of tenure escalate about 1.8 times as often as more experienced agents.`,
    planted: `escalation probability × ${E.newAgentEscalationFactor} when agents.tenure_months < ${E.newAgentTenureMonths}`,
    tables: ['calls', 'agents'], columns: ['calls.escalated', 'agents.tenure_months'],
    sql: `SELECT a.tenure_months < ${E.newAgentTenureMonths} AS new_agent, round(avg(c.escalated::INTEGER), 4) AS escalation_rate, count(*) AS calls
          FROM calls c JOIN agents a USING (agent_id) GROUP BY ALL ORDER BY new_agent`,
  },
  {
    id: 'outlier-agent-escalation',
    title: `${E.outlierAgent} escalates far more than peers`,
    finding: `Agent ${E.outlierAgent} escalates about three times as often as the average agent.`,
    planted: `escalation probability × ${E.outlierEscalationFactor} for ${E.outlierAgent}`,
    tables: ['calls'], columns: ['calls.agent_id', 'calls.escalated'],
    sql: `SELECT agent_id = '${E.outlierAgent}' AS is_${E.outlierAgent.replace('-', '_').toLowerCase()}, round(avg(escalated::INTEGER), 4) AS escalation_rate, count(*) AS calls FROM calls GROUP BY ALL ORDER BY 1`,
  },
  {
    id: 'outlier-agent-empathy',
    title: `${E.outlierAgent} scores low on empathy`,
    finding: `Agent ${E.outlierAgent}'s empathy QA score is about 1.5 points below the average agent's.`,
    planted: `empathy score −${E.outlierEmpathyDrop} for ${E.outlierAgent}`,
    tables: ['qa_evaluations'], columns: ['qa_evaluations.agent_id', 'qa_evaluations.rubric_item', 'qa_evaluations.score'],
    sql: `SELECT agent_id = '${E.outlierAgent}' AS is_outlier_agent, round(avg(score), 3) AS mean_empathy_score, count(*) AS scores
          FROM qa_evaluations WHERE rubric_item = 'empathy' GROUP BY ALL ORDER BY 1`,
  },
  {
    id: 'premium-csat',
    title: 'Premium customers are most satisfied',
    finding: 'Premium-segment customers give the highest CSAT, about 0.4 above other segments.',
    planted: `CSAT +${E.premiumCsatBonus} for segment premium`,
    tables: ['calls', 'customers'], columns: ['calls.csat', 'customers.segment'],
    sql: `SELECT cu.segment, round(avg(c.csat), 3) AS mean_csat, count(c.csat) AS responses FROM calls c JOIN customers cu USING (customer_id) GROUP BY cu.segment ORDER BY mean_csat DESC`,
  },
];
