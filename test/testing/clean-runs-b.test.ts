// Clean units pass 20 checks in a row: a timer cleared inside the ALS context, a listener removed.

import { test } from 'node:test';
import { handleWithClearedTimer, subscribeOnce } from './units.js';
import { passesEveryRun, RUNS } from './clean-runs.js';

test(`a timer cleared inside the request's AsyncLocalStorage context passes ${RUNS} runs in a row`, () => passesEveryRun(handleWithClearedTimer));
test(`a listener removed when the call ends passes ${RUNS} runs in a row`, () => passesEveryRun(subscribeOnce));
