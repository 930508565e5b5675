// The planted effects: the generator's parameters that create the patterns documented in README.md and
// exported by patterns.ts. Change one here and both the data and the documented truth follow.

export const EFFECTS = {
  escalationBase: 0.06,
  /** Escalation probability multiplier by the caller's time zone. */
  escalationByTimeZone: { 'America/Los_Angeles': 2.5 } as Record<string, number>,
  /** Agents with fewer months of tenure than this escalate more often. */
  newAgentTenureMonths: 6,
  newAgentEscalationFactor: 1.8,
  /** One agent is an outlier: more escalations, lower empathy scores (the DDR "Analyze agent A-0042" entity). */
  outlierAgent: 'A-0042',
  outlierAgentNumber: 42,
  outlierEscalationFactor: 3,
  outlierEmpathyDrop: 1.5,
  /** A team whose QA scores drop (every rubric item) for evaluations on or after a date. */
  qaDropTeam: 'Ember',
  qaDropDate: '2026-04-01',
  qaDrop: 1.2,
  /** A call driver with low CSAT. */
  lowCsatDriver: 'billing_dispute',
  lowCsatPenalty: 1.5,
  /** Sentiment moves up in resolved calls and down in unresolved ones. */
  sentimentShiftResolved: 0.3,
  sentimentShiftUnresolved: -0.35,
  /** Night-shift agents put callers on hold longer. */
  nightHoldFactor: 1.6,
  /** Resolution probability multiplier by number of transfers (0, 1, 2, 3). */
  transferResolutionFactors: [1, 0.85, 0.6, 0.5],
  /** A three-day outage: this share of all outage calls falls in the window. */
  outageStart: '2026-03-10',
  outageDays: 3,
  outageShareInWindow: 0.12,
  /** Site with shorter handle times, and the segment with longer ones. */
  fastSite: 'Krakow',
  fastSiteDurationFactor: 0.85,
  slowSegment: 'enterprise',
  slowSegmentDurationFactor: 1.3,
  /** Cancellation calls: resolution (= saved) with and without a refund offer. */
  cancellationResolvedWithRefund: 0.75,
  cancellationResolvedWithoutRefund: 0.35,
  refundOfferRate: 0.4,
  /** Share of calls whose customer answers the CSAT survey, by channel. */
  csatResponseByChannel: { voice: 0.6, chat: 0.3, callback: 0.5 } as Record<string, number>,
  /** Long holds cost CSAT. */
  longHoldSeconds: 300,
  longHoldCsatPenalty: 1.0,
  csatBase: 4.1,
  csatUnresolvedPenalty: 1.3,
  csatEscalatedPenalty: 0.5,
  premiumCsatBonus: 0.4,
  /** Share of calls that get a QA evaluation. */
  qaSampleRate: 0.1,
} as const;
