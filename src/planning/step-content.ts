import { stripPlaceholders } from './placeholders.ts';

/**
 * Words that say nothing about what a step asks: function words, the verbs every plan uses (retrieve, compute,
 * count, summarise…), and the vocabulary of every contact-center step (call, customer, agent, transcript…). What
 * is left — the content words — names what a step is about (escalation, time zone, CSAT, refund, empathy…).
 */
const GENERIC = new Set(
  `a an the of in on at to for from by with without and or but not no is are was were be been being it its this that these those
  there their them they he she his her we our you your i me my as if then than so such into onto over under about after before
  between during each every per all any some most more less least which what who whom whose where when why how whether do does did
  has have had can could should would will may might must also only just very same other others one two three up down out
  step steps output outputs result results data given using use used based found find finds listed list lists return returns
  retrieve retrieved retrieves get fetch show shows compute computes calculate count counts compare compares summarise summarize
  summary describe describes explain explains write writes combine combines answer answers say says said give gives identify
  look looks read reads transcript transcripts passage passages call calls customer customers agent agents caller callers
  contact center contact-center manager analysis finding findings evidence`.split(/\s+/),
);

/** A step prompt's content words, lower-cased, a plural "s" folded, placeholders and generic words dropped. */
export function contentWords(prompt: string): Set<string> {
  const words = stripPlaceholders(prompt).toLowerCase().split(/[^a-z0-9_%'/-]+/);
  const content = new Set<string>();
  for (const raw of words) {
    const word = raw.replace(/'s$/, '').replace(/^'+|'+$/g, '');
    if (word.length < 2 || GENERIC.has(word)) continue;
    content.add(word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word);
  }
  return content;
}

/** Overlap coefficient of two content-word sets, |A ∩ B| / min(|A|, |B|); 0 when either is empty. */
export function contentOverlap(left: ReadonlySet<string>, right: ReadonlySet<string>): number {
  if (left.size === 0 || right.size === 0) return 0;
  let shared = 0;
  for (const word of left) if (right.has(word)) shared += 1;
  return shared / Math.min(left.size, right.size);
}
