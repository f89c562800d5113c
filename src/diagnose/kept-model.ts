// The leak test of a survivor group (docs/diagnosis-model.md, "The kept-rate model"): estimate how many
// objects per unit of work the group keeps *late in the series*, with its uncertainty, and call it
// a leak only when that rate is above zero at a stated false-alarm level. Pure arithmetic, no graph.
//
// - Kept per interval. Survivors born in an interval that is not the last lived through at least one
//   whole interval after it: kept, as far as the series can tell. The last interval's survivors also
//   hold the work in flight at the newest snapshot; that part is estimated from the class's earlier
//   intervals (born in an interval and alive at its end, yet dead by the newest snapshot: in flight)
//   and taken out.
// - Late. Only the later half of the intervals counts (at least the last one): growth that stops
//   (code compiled, a cache filled once, a singleton made on first use) is early, and a leak goes on.
// - Noise under "nothing is kept". A whole interval's survivors are zero unless something is kept;
//   the last interval's carry the in-flight count of that moment, which moves by about its square root
//   (a count of independent turns), plus the error of the estimate taken out. Each interval's rate is
//   weighed by the inverse of that variance.
// - The false-alarm level is per diagnosis: with G groups tested, each is held to falseAlarm / G (model-params.ts).
// - Kept, not replaced: the class's live count must not contradict the kept growth (a bounded cache or
//   pool takes in new members and lets as many old ones go: its survivors are recent, its size flat).
// - It matters: what the group retains clears minGroupBytes (survivors are known by identity: no
//   share of the heap or its noise needed; class totals keep both, growth-model.ts significance).

import { stepsOf } from './growth-model.js';

/** Variance floor of a count that read zero (a count of 0 still allows about one by chance). */
const ZERO_COUNT_VARIANCE = 1;

export interface InFlight {
  /** Objects of the class born in an interval and alive at its end that died later, per snapshot. */
  readonly level: number;
  /** Variance of that estimate; Infinity when no earlier interval shows any of the class's objects. */
  readonly variance: number;
}

/**
 * The class's work in flight at a snapshot: for each interval but the last, born in it and alive at its
 * end (`newPerInterval`) less the survivors born in it (alive at the newest snapshot). Unknown (0 with a
 * count's variance) with one interval.
 */
export function inFlightOf(newPerInterval: readonly number[] | null, survivorCounts: readonly number[] | null): InFlight {
  if (!newPerInterval || !survivorCounts || newPerInterval.length < 2) return { level: 0, variance: ZERO_COUNT_VARIANCE };
  // A class none of whose objects were born before the last interval (new in the series, or idle till
  // then) shows nothing of its work in flight: its last interval cannot be told from that work at all.
  if (newPerInterval.slice(0, -1).every((n) => n === 0)) return { level: 0, variance: Infinity };
  const born = stepsOf(survivorCounts);
  const transient = newPerInterval.slice(0, -1).map((n, k) => Math.max(0, n - born[k]!));
  const level = mean(transient);
  // A count's variance (Poisson) or what the readings show, whichever is larger, over the readings.
  const spread = transient.length > 1 ? transient.reduce((a, t) => a + (t - level) ** 2, 0) / (transient.length - 1) : 0;
  return { level, variance: Math.max(level, spread, ZERO_COUNT_VARIANCE) / transient.length };
}

/**
 * Whether the class's objects born in the last interval and alive at the newest snapshot are no more
 * than its work in flight at some earlier snapshot: its objects alive then and gone by the newest (its
 * objects from before the first snapshot that are still alive are not in flight). The class has held
 * that many before and let them all go. No assumption on how the work in flight moves (a batch between
 * flushes moves by far more than a count of independent objects); were it steady, the newest would
 * exceed every earlier reading by chance once in n + 1 (n readings), and a growing backlog always does.
 * Undefined without identities or an earlier snapshot.
 */
export function withinInFlightSeen(live: readonly number[], survivorCounts: readonly number[] | null): boolean | undefined {
  const levels = inFlightLevels(live, survivorCounts);
  if (!levels) return undefined;
  return levels[levels.length - 1]! <= Math.max(...levels.slice(0, -1));
}

/**
 * The class's work in flight at each snapshot: its objects alive then and gone by the newest (those from
 * before the first snapshot that are still alive left out); at the newest, its objects born in the last
 * interval. Undefined without identities or an earlier snapshot.
 */
export function inFlightLevels(live: readonly number[], survivorCounts: readonly number[] | null): number[] | undefined {
  const last = live.length - 1;
  if (!survivorCounts || last < 1) return undefined;
  const older = live[last]! - survivorCounts[last]!;
  return [...live.slice(0, -1).map((c, k) => c - survivorCounts[k]! - older), survivorCounts[last]! - survivorCounts[last - 1]!];
}


/**
 * Chance of counts rising along the work at least this steeply if they only scatter around a level: the
 * least-squares slope over cumulative work against its standard error, the scatter estimated from the
 * residuals (Student's t, n − 2 degrees of freedom) and never below a count's own (Poisson) variance. A
 * queue growing by a steady step has residuals far under its rise; a batch caught at random fill levels
 * does not. 1 with fewer than three readings.
 */
export function trendChance(counts: readonly number[], work: readonly number[]): number {
  const n = counts.length;
  if (n < 3) return 1;
  let at = 0;
  const x = counts.map((_, k) => (at += k > 0 ? work[k - 1]! : 0));
  const mx = x.reduce((a, b) => a + b, 0) / n, my = counts.reduce((a, b) => a + b, 0) / n;
  let sxx = 0, sxy = 0, syy = 0;
  for (let k = 0; k < n; k++) {
    sxx += (x[k]! - mx) ** 2;
    sxy += (x[k]! - mx) * (counts[k]! - my);
    syy += (counts[k]! - my) ** 2;
  }
  if (!(sxx > 0)) return 1;
  const slope = sxy / sxx;
  const variance = Math.max((syy - slope * sxy) / (n - 2), my, 1);
  return studentUpperTail(slope / Math.sqrt(variance / sxx), n - 2);
}

export interface KeptRate {
  /** Kept objects per unit of work over the late intervals (inverse-variance weighted). */
  readonly rate: number;
  /** Its standard error under "nothing is kept". */
  readonly se: number;
  /** rate / se. */
  readonly z: number;
  /** Kept objects per interval, the last one less the in-flight estimate. */
  readonly kept: readonly number[];
  /** Index of the first interval counted as late. */
  readonly lateFrom: number;
  /** The same z over every interval: growth the early intervals show that the late ones cannot confirm. */
  readonly zAll: number;
  /** The same z over every interval but the last: a rate the early intervals show by themselves. */
  readonly zBeforeLast: number;
  /**
   * How many standard errors the late rate is below the early one (counts as Poisson): growth that is
   * levelling off (a cache filling over a long tail of keys) is not yet a leak. 0 without early intervals.
   */
  readonly slowdownZ: number;
  /**
   * How far the kept counts scatter beyond a count's own noise around their trend (dispersion):
   * Pearson χ² of a log-linear fit over its degrees of freedom, at least 1; 1 with two intervals or
   * fewer. Objects kept in bursts scatter by far more than single objects; a cache levelling off follows
   * its trend.
   */
  readonly dispersion: number;
  /** The last interval's in-flight level is unknown (its class had no objects born before it). */
  readonly lastUnknown: boolean;
}

/**
 * Whether growth that stopped in the trailing intervals may be a pause between bursts. Counted as
 * independent objects such a drop is far beyond chance, but objects that come in bursts are far fewer
 * independent arrivals: the fewest the kept counts allow is one per interval that kept any. At that
 * rate (arrivals per interval before the silent ones), the trailing silent intervals see none with
 * chance exp(-rate × silent); a pause while that chance is above the ruled-out level `zRuledOut`.
 */
export function mayBePause(kept: readonly number[], zRuledOut: number): boolean {
  let silent = 0;
  while (silent < kept.length && kept[kept.length - 1 - silent]! < 1) silent++;
  const before = kept.length - silent;
  if (silent === 0 || before === 0) return false;
  const arrivals = kept.slice(0, before).filter((n) => n >= 1).length;
  if (arrivals === 0) return false;
  const chance = Math.exp(-(arrivals / before) * silent);
  return normalQuantile(1 - chance) < zRuledOut;
}

/** The later half of the intervals, at least the last. */
export function lateFrom(intervals: number): number {
  return Math.floor(intervals / 2);
}

/**
 * `born[k]`: survivors born in interval k (a survivor curve's steps); `work[k]`: the work in it;
 * `inFlight`: the class's (an upper bound for one of its groups: taking it out errs toward "not a leak").
 */
export function keptRate(born: readonly number[], work: readonly number[], inFlight: InFlight): KeptRate {
  const m = born.length;
  const last = m - 1;
  const kept = born.map((b, k) => (k === last ? b - Math.min(b, inFlight.level) : b));
  const variances = born.map((_, k) => (k === last ? Math.max(inFlight.level, ZERO_COUNT_VARIANCE) + inFlight.variance : ZERO_COUNT_VARIANCE));
  const from = lateFrom(m);
  const late = weightedRate(kept, work, variances, from);
  return {
    ...late, kept, lateFrom: from, zAll: weightedRate(kept, work, variances, 0).z, zBeforeLast: weightedRate(kept, work, variances, 0, last).z,
    slowdownZ: slowdown(kept, work, from, inFlight),
    dispersion: dispersionOf(kept, work), lastUnknown: inFlight.variance === Infinity,
  };
}

/**
 * Pearson χ² over m − 2 of the Poisson fit `kept_k ~ work_k · exp(a + b·k)` (Newton's method), at
 * least 1; 1 with fewer than three intervals (no degree of freedom left).
 */
export function dispersionOf(kept: readonly number[], work: readonly number[]): number {
  const m = kept.length;
  if (m < 3) return 1;
  const y = kept.map((n) => Math.max(0, n));
  const total = y.reduce((a, b) => a + b, 0);
  if (total <= 0) return 1;
  let a = Math.log(total / work.reduce((s, w) => s + w, 0)), b = 0;
  const mu = (k: number) => work[k]! * Math.exp(a + b * k);
  for (let step = 0; step < 50; step++) {
    let ga = 0, gb = 0, haa = 0, hab = 0, hbb = 0;
    for (let k = 0; k < m; k++) {
      const u = mu(k);
      ga += y[k]! - u; gb += k * (y[k]! - u);
      haa += u; hab += k * u; hbb += k * k * u;
    }
    const det = haa * hbb - hab * hab;
    if (!(det > 1e-12)) break;
    const da = (hbb * ga - hab * gb) / det, db = (haa * gb - hab * ga) / det;
    a += da; b += db;
    if (Math.abs(da) + Math.abs(db) < 1e-9 || Math.abs(b) > 50) break;
  }
  let chi2 = 0;
  for (let k = 0; k < m; k++) {
    const u = Math.max(mu(k), 1e-9);
    chi2 += (y[k]! - u) ** 2 / u;
  }
  return Math.max(1, chi2 / (m - 2));
}

/**
 * The same test on live counts without identity (no births known): what each interval kept is the
 * count's step, less a share of what may have moved from the class's other paths (`moved`, taken out
 * in proportion to the gain). The work in flight along the path is unknown, at most the count itself:
 * under "nothing is kept" a step is the difference of two counts of independent objects, variance
 * the sum of the two readings (a count's own noise), which errs toward "not a leak" where a path
 * holds many lasting objects. The slowdown test uses the same variances.
 */
export function keptRateOfCounts(counts: readonly number[], moved: number, work: readonly number[]): KeptRate {
  const steps = stepsOf(counts);
  const gain = counts[counts.length - 1]! - counts[0]!;
  const share = gain > 0 ? Math.max(0, gain - moved) / gain : 1;
  const kept = steps.map((a) => (a > 0 ? a * share : a));
  const variances = steps.map((_, k) => Math.max(counts[k]!, ZERO_COUNT_VARIANCE) + Math.max(counts[k + 1]!, ZERO_COUNT_VARIANCE));
  const from = lateFrom(steps.length);
  const late = weightedRate(kept, work, variances, from);
  return {
    ...late, kept, lateFrom: from, zAll: weightedRate(kept, work, variances, 0).z, zBeforeLast: weightedRate(kept, work, variances, 0, steps.length - 1).z,
    slowdownZ: slowdownOfCounts(kept, work, variances, from), dispersion: 1, lastUnknown: false,
  };
}

/** The kept rate over intervals [from, to), each weighed by the inverse of its variance under "nothing is kept". */
function weightedRate(kept: readonly number[], work: readonly number[], variances: readonly number[], from: number, to = kept.length): { rate: number; se: number; z: number } {
  let weighted = 0, weights = 0;
  for (let k = from; k < to; k++) {
    // Rate in interval k is kept[k] / work[k], its variance variance / work[k]²: weight work² / variance.
    const w = (work[k]! * work[k]!) / variances[k]!;
    weighted += (kept[k]! / work[k]!) * w;
    weights += w;
  }
  const rate = weights > 0 ? weighted / weights : 0;
  const se = weights > 0 ? 1 / Math.sqrt(weights) : Infinity;
  return { rate, se, z: se > 0 ? rate / se : 0 };
}

/**
 * How many standard errors the live heap's growth per unit of work fell from the early intervals to the
 * late ones (lateFrom), its back-and-forth `noise` bytes an interval. A cache filling over a long tail
 * of keys slows in bytes as in count; a leak whose kept objects each hold more than the last (a growing
 * state copied per checkpoint) may slow in count while its bytes do not. 0 without early intervals.
 */
export function heapSlowdownZ(totals: readonly number[], work: readonly number[], noise: number): number {
  const m = totals.length - 1;
  const from = lateFrom(m);
  if (from === 0 || m < 1) return 0;
  const sum = (a: number, b: number) => work.slice(a, b).reduce((x, y) => x + y, 0);
  const earlyWork = sum(0, from), lateWork = sum(from, m);
  const early = (totals[from]! - totals[0]!) / earlyWork, late = (totals[m]! - totals[from]!) / lateWork;
  const sigma = Math.max(noise, 1);
  const se = Math.sqrt((from * sigma * sigma) / earlyWork ** 2 + ((m - from) * sigma * sigma) / lateWork ** 2);
  return (early - late) / se;
}

/**
 * Whether the live heap kept pace: its growth per unit of work did not fall from the early intervals to
 * the late ones, and the late ones grew by at least `floor` bytes. Then a group whose count slows is not
 * levelling off (each kept object holds more than the last).
 */
export function heapKeptPace(totals: readonly number[], work: readonly number[], noise: number, floor: number): boolean {
  const m = totals.length - 1;
  return m >= 1 && heapSlowdownZ(totals, work, noise) <= 0 && totals[m]! - totals[lateFrom(m)]! >= floor;
}

/** The early rate less the late one, in standard errors of the difference (kept counts as Poisson). */
function slowdown(kept: readonly number[], work: readonly number[], from: number, inFlight: InFlight): number {
  if (from === 0) return 0;
  const sum = (values: readonly number[], a: number, b: number) => values.slice(a, b).reduce((x, y) => x + y, 0);
  const earlyWork = sum(work, 0, from), lateWork = sum(work, from, work.length);
  const early = sum(kept, 0, from), late = sum(kept, from, kept.length);
  const variance = Math.max(early, ZERO_COUNT_VARIANCE) / earlyWork ** 2 + (Math.max(late, ZERO_COUNT_VARIANCE) + inFlight.variance) / lateWork ** 2;
  return (early / earlyWork - late / lateWork) / Math.sqrt(variance);
}

/** The early rate less the late one, in standard errors of the difference, with the counts' own variances. */
function slowdownOfCounts(kept: readonly number[], work: readonly number[], variances: readonly number[], from: number): number {
  if (from === 0) return 0;
  const sum = (values: readonly number[], a: number, b: number) => values.slice(a, b).reduce((x, y) => x + y, 0);
  const earlyWork = sum(work, 0, from), lateWork = sum(work, from, work.length);
  const variance = sum(variances, 0, from) / earlyWork ** 2 + sum(variances, from, kept.length) / lateWork ** 2;
  return (sum(kept, 0, from) / earlyWork - sum(kept, from, kept.length) / lateWork) / Math.sqrt(variance);
}

/**
 * What the class's live count says of the group's kept objects, against `z` standard deviations of its
 * noise (the in-flight count at the two ends, or the scatter of its steps beyond the kept objects): `kept` when it rose, by keptShare of the kept objects at least (objects that live long but die, a keyed cache
 * that replaces its values, TTL entries, are survivors too, and leave the count flat); `replaced` when
 * its rise is below keptShare of the kept objects; `unsure` between (a busy class: more snapshots tell).
 */
export function classKeeps(kept: readonly number[], live: readonly number[], inFlight: InFlight, z: number, keptShare: number): 'kept' | 'replaced' | 'unsure' {
  const total = kept.reduce((a, b) => a + b, 0);
  const rise = live[live.length - 1]! - live[0]!;
  const sd = Math.sqrt(2 * Math.max(inFlight.level, ZERO_COUNT_VARIANCE));
  if (rise + z * sd < keptShare * total) return 'replaced';
  // Kept only beyond what the class count's steps show besides the kept objects, when that is more: a
  // common class moves with everything else made of it, in chunks (a turn makes several), by far more
  // than a count of independent objects. Between the two it is not sure (its holder's reads settle it).
  const moves = Math.max(sd, stepScatter(stepsOf(live).map((step, k) => step - (kept[k] ?? 0))));
  return rise >= z * moves && rise >= keptShare * total ? 'kept' : 'unsure';
}

/** Standard deviation of the steps around their mean; 0 with fewer than two. */
function stepScatter(steps: readonly number[]): number {
  if (steps.length < 2) return 0;
  const m = mean(steps);
  return Math.sqrt(steps.reduce((a, x) => a + (x - m) ** 2, 0) / (steps.length - 1));
}

/** The z a group must reach when `tested` groups were tested: the false-alarm chance shared among them. */
export function leakZ(tested: number, falseAlarm: number): number {
  return normalQuantile(1 - falseAlarm / Math.max(1, tested));
}

/**
 * Intervals like the late ones the series would need for a candidate at `z` to reach `target`, if its
 * rate holds: z grows with the square root of the evidence.
 */
export function intervalsToSettle(k: KeptRate, target: number): number {
  if (k.z <= 0) return Infinity;
  const late = k.kept.length - k.lateFrom;
  return Math.max(1, Math.ceil(late * ((target / k.z) ** 2 - 1)));
}

function mean(values: readonly number[]): number {
  return values.length > 0 ? values.reduce((a, b) => a + b, 0) / values.length : 0;
}

/**
 * Chance that Student's t with `dof` degrees of freedom exceeds `t` (one-sided), from the closed forms for
 * integer degrees of freedom (Abramowitz & Stegun 26.7.3–4): the series are short for the few snapshots
 * a capture takes.
 */
export function studentUpperTail(t: number, dof: number): number {
  if (!(dof >= 1)) return NaN;
  if (t === Infinity) return 0;
  if (t === -Infinity) return 1;
  const theta = Math.atan(Math.abs(t) / Math.sqrt(dof));
  const c2 = Math.cos(theta) ** 2;
  let within: number; // P(|T| <= |t|)
  if (dof % 2 === 1) {
    let term = Math.cos(theta), sum = dof > 1 ? term : 0;
    for (let k = 3; k <= dof - 2; k += 2) {
      term *= ((k - 1) / k) * c2;
      sum += term;
    }
    within = (2 / Math.PI) * (theta + Math.sin(theta) * sum);
  } else {
    let term = 1, sum = 1;
    for (let k = 2; k <= dof - 2; k += 2) {
      term *= ((k - 1) / k) * c2;
      sum += term;
    }
    within = Math.sin(theta) * sum;
  }
  const upper = (1 - within) / 2;
  return t >= 0 ? upper : 1 - upper;
}

/** Inverse of the standard normal CDF (Acklam's rational approximation, relative error < 1.2e-9). */
export function normalQuantile(p: number): number {
  if (p <= 0) return -Infinity;
  if (p >= 1) return Infinity;
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) / ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  }
  if (p > 1 - low) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) / (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1);
}
