// A finding's rates: per interval, and per minute and per unit of work when the series says how long
// and how much. Every finder states its counts this way.

import type { DiagnoseInput } from './finding.js';

export function rates(count: number, input: Pick<DiagnoseInput, 'elapsedMs' | 'unitCount'>, intervals: number) {
  return {
    perInterval: intervals > 0 ? count / intervals : count,
    ...(input.elapsedMs ? { perMinute: (count * 60000) / input.elapsedMs } : {}),
    ...(input.unitCount ? { perUnit: count / input.unitCount } : {}),
  };
}
