// Which survivor groups a diff reports (and so which the diagnosis judges): the largest by retained size,
// then the largest by their members' own size, so a chain of single holders cannot crowd out what it holds.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reportedGroups } from '../../src/analysis/diff/diff-series.js';

test('a chain of single holders does not crowd out the many objects it holds', () => {
  // 60 one-member groups each retaining the same 700 KB structure (a running turn's promise chain), and
  // the 1,165 messages it holds: 150 KB of their own, 160 KB retained.
  const holders = Array.from({ length: 60 }, (_, k) => ({ name: `hop ${k}`, retainedSize: 700_000 - k, selfSize: 56 }));
  const messages = { name: 'AIMessage', retainedSize: 160_000, selfSize: 150_000 };
  const groups = [...holders, messages].sort((a, b) => b.retainedSize - a.retainedSize);
  const shown = reportedGroups(groups, 50);
  assert.deepEqual(shown.slice(0, 50), groups.slice(0, 50), 'the largest by retained size come first, in order');
  assert.ok(shown.includes(messages), 'the messages are reported');
  assert.equal(new Set(shown).size, shown.length, 'no group twice');
  assert.ok(shown.length <= 100);
  // Fewer groups than the limit: each once, in retained order.
  assert.deepEqual(reportedGroups(groups.slice(0, 3), 50), groups.slice(0, 3));
});
