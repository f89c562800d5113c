// color-level.ts: which of --no-color, NO_COLOR, FORCE_COLOR and the terminal decides, for every value
// FORCE_COLOR takes (the CLI test covers a pipe; a terminal is only reachable here).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { colorLevel } from '../../src/cli/color-level.js';

test('without any setting: colours on a terminal, none into a pipe', () => {
  assert.equal(colorLevel(true, false, {}), 1);
  assert.equal(colorLevel(false, false, {}), 0);
});

test('FORCE_COLOR: on, 256 and true colour even into a pipe; off even on a terminal', () => {
  for (const [value, level] of [['', 1], ['1', 1], ['true', 1], ['2', 2], ['3', 3]] as const) {
    assert.equal(colorLevel(false, false, { FORCE_COLOR: value }), level, `FORCE_COLOR=${value} into a pipe`);
    assert.equal(colorLevel(true, false, { FORCE_COLOR: value }), level, `FORCE_COLOR=${value} on a terminal`);
  }
  for (const value of ['0', 'false', 'no']) {
    assert.equal(colorLevel(true, false, { FORCE_COLOR: value }), 0, `FORCE_COLOR=${value} on a terminal`);
  }
});

test('--no-color and NO_COLOR (any value) win over FORCE_COLOR and the terminal', () => {
  assert.equal(colorLevel(true, true, { FORCE_COLOR: '3' }), 0);
  assert.equal(colorLevel(true, false, { NO_COLOR: '1', FORCE_COLOR: '1' }), 0);
  assert.equal(colorLevel(true, false, { NO_COLOR: '' }), 0);
});
