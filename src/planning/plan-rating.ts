/** The 7-point one-shot rating, worst first (docs/architecture.md "Scores"). */
export const PLAN_RATINGS = ['Extremely Bad', 'Very Bad', 'Bad', 'Acceptable', 'Good', 'Very Good', 'Extremely Good'] as const;
export type PlanRating = (typeof PLAN_RATINGS)[number];

/** Lower bounds (exclusive) of each rating above Extremely Bad, on F1 in 0..1. */
const THRESHOLDS: Array<[number, PlanRating]> = [
  [0.95, 'Extremely Good'],
  [0.85, 'Very Good'],
  [0.75, 'Good'],
  [0.6, 'Acceptable'],
  [0.45, 'Bad'],
  [0.3, 'Very Bad'],
];

/** The rating of a step F1 (0..1): Extremely Good > 95 %, Very Good > 85, Good > 75, Acceptable > 60, Bad > 45, Very Bad > 30. */
export function ratingForF1(f1: number): PlanRating {
  for (const [bound, rating] of THRESHOLDS) if (f1 > bound) return rating;
  return 'Extremely Bad';
}

/** The lower of two ratings. */
export function worseRating(left: PlanRating, right: PlanRating): PlanRating {
  return PLAN_RATINGS.indexOf(left) <= PLAN_RATINGS.indexOf(right) ? left : right;
}

/** A rating's position, 0 (Extremely Bad) … 6 (Extremely Good): what a score table averages. */
export function ratingIndex(rating: PlanRating): number {
  return PLAN_RATINGS.indexOf(rating);
}
