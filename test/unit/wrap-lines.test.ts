// Wrapping and shortening of report lines (src/cli/wrap-lines.ts, src/report/diagnosis-report.ts,
// src/report/paths.ts): a figure stays with its unit, a fold `… N hops …` stays whole, no line ends in
// `←`, every character is kept; class lists fit one line and shorten names only at a `, ` with `…`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { wrapLine } from '../../src/cli/wrap-lines.js';
import { fittedList, shortClassName } from '../../src/report/diagnosis-report.js';
import { briefPaths } from '../../src/report/paths.js';

test('wrapLine keeps figures with their units and folds whole, never ends a line in an arrow', () => {
  const chain = '   chain: RunTree @530443 (AsyncLocalStorage store) ← ["<symbol kResourceStore>"] of Timeout @461567 (captured the store) ← InternalChannel @530449 ← … 3 hops … ← .table of Set @378765 (there before the first snapshot) ← … 12 hops … ← (root) @1';
  for (const width of [40, 60, 80, 100]) {
    const lines = wrapLine(chain, width);
    assert.ok(lines.every((l) => l.length <= width), `width ${width}:\n${lines.join('\n')}`);
    assert.ok(lines.every((l) => !/←$/.test(l) && !/…$/.test(l.trimEnd()) || /hops …$/.test(l)), `no line ends in an arrow or a bare …:\n${lines.join('\n')}`);
    const joined = lines.map((l) => l.trim()).join(' ');
    assert.equal(joined, chain.trim(), 'every character kept');
    assert.match(joined, /… 3 hops …/);
    for (const l of lines) assert.doesNotMatch(l, /… \d+$|^\s*hops …/, `a fold is never split:\n${lines.join('\n')}`);
  }
  const memory = '- memory timeline over 19 s (39 samples, fitted): RSS +114.7 MiB, heap +3.9 MiB, external +256.3 KiB, native +0.0 KiB';
  for (const width of [60, 70, 80, 90, 100]) {
    for (const l of wrapLine(memory, width)) assert.doesNotMatch(l, /\d$/, `a figure is never left without its unit at ${width}: "${l}"`);
  }
  const long = `x ${'a'.repeat(150)} y`;
  assert.equal(wrapLine(long, 60).join('').replace(/ /g, ''), long.replace(/ /g, ''), 'a word longer than a line is split, nothing lost');
});

test('class lists fit one line of 100 columns; shapes are shortened at a property with …', () => {
  assert.equal(shortClassName('{metadata, runtime, <symbol lc:child_config>}'), '{metadata, runtime, …}');
  assert.equal(shortClassName('RunTree'), 'RunTree');
  assert.equal(shortClassName('AVeryLongConstructorNameWithoutAnyCommaInIt'), 'AVeryLongConstructorNameWithoutAnyCommaInIt', 'no place to cut: whole');
  const entries = Array.from({ length: 20 }, (_, i) => `${100 - i} × Class${i}WithALongerName`);
  const line = fittedList('   holds: ', entries);
  assert.ok(line.length <= 100, line);
  assert.match(line, /^ {3}holds: 100 × Class0WithALongerName, .* and \d+ more classes$/);
  const shown = line.split(', ').length;
  assert.equal(Number(/and (\d+) more/.exec(line)![1]) + shown, 20, 'every entry shown or counted');
  assert.equal(fittedList('   holds: ', ['2 × A']), '   holds: 2 × A');
  assert.equal(fittedList('   holds: ', ['2 × A', '1 × B']), '   holds: 2 × A, 1 × B');
});

test('briefPaths: a dependency file as its package and file name', () => {
  assert.equal(briefPaths('runs f() at /srv/app/node_modules/@grpc/grpc-js/build/src/internal-channel.js:459:37)', '/home/me'), 'runs f() at node_modules/@grpc/grpc-js/…/internal-channel.js:459:37)');
  assert.equal(briefPaths('at /srv/app/node_modules/lodash/index.js:1:2', '/home/me'), 'at node_modules/lodash/index.js:1:2', 'nothing to fold');
  assert.equal(briefPaths('at /home/me/app/src/agent.js:3:4', '/home/me'), 'at app/src/agent.js:3:4', 'the program\'s own files stay whole');
});
