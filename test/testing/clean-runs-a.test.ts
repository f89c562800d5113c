// Clean units pass 20 checks in a row: allocate-and-drop (async) and a bounded cache.

import { test } from 'node:test';
import { cacheOrder, priceOrder } from './units.js';
import { passesEveryRun, RUNS } from './clean-runs.js';

test(`allocate and drop (async) passes ${RUNS} runs in a row`, () => passesEveryRun(priceOrder));
test(`a bounded cache passes ${RUNS} runs in a row`, () => passesEveryRun(cacheOrder));
