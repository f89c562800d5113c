// The fix is read off the program's part of the chain: up to the first scope that holds it as a
// variable, so a test runner's Maps and emitters further up are never named as the container.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChainHop } from '../../src/analysis/chain-description.js';
import { chooseFix, programPart } from '../../src/testing/choose-fix.js';

function hop(className: string, id: number, edge: [type: string, name: string] | null, type = 'object'): ChainHop {
  return { node: { id, name: className, type, className }, edge: edge && { type: edge[0], name: edge[1] }, selfSize: 16, retainedSize: 16 };
}

const runner = [
  hop('queueOrder()', 20, ['internal', 'value'], 'closure'),
  hop('(array)', 21, ['internal', 'table']),
  hop('Map', 22, ['property', 'testResources']),
  hop('Object', 23, ['property', '_events']),
  hop('process', 24, ['context', 'process']),
  hop('(root)', 1, null, 'synthetic'),
];

test('an array in a module variable: the array is named, not the runner\'s Map', () => {
  const chain = [hop('Order', 10, ['element', '3']), hop('Array', 11, ['context', 'pendingOrders']), hop('system / Context', 12, ['internal', 'context']), ...runner];
  assert.equal(programPart(chain).length, 3);
  assert.match(chooseFix('Order', chain), /^Order objects are pushed into the array "pendingOrders" \(Array @11\)/);
});

test('a listener: the emitter\'s part is read, not the runner\'s; a closure\'s own scope does not end it', () => {
  const listener = [
    hop('onChange()', 30, ['element', '0'], 'closure'),
    hop('Array', 31, ['property', 'change']),
    hop('Object', 32, ['property', '_events']),
    hop('EventEmitter', 33, ['context', 'bus']),
    hop('system / Context', 34, ['internal', 'context']),
    ...runner,
  ];
  assert.equal(programPart(listener).length, 5);
  assert.doesNotMatch(chooseFix('onChange()', listener), /testResources|process/);
  const session = [hop('Session', 40, ['context', 'session']), hop('system / Context', 41, ['internal', 'context']), ...listener];
  assert.equal(programPart(session).length, 2 + 5, 'through the closure scope to the module scope');
});

test('an ES module export: the binding\'s cell ends the program\'s part', () => {
  const chain = [
    hop('Session', 60, ['property', 'current']),
    hop('Holder', 61, ['internal', 'value']),
    hop('(system)', 62, ['internal', '0']),
    ...runner,
  ];
  assert.equal(programPart(chain).length, 3);
  assert.match(chooseFix('Session', chain), /^Session objects stay reachable through Holder @61 \(via current\)/);
});

test('vitest: a module variable is a hidden slot of the module function\'s scope', () => {
  const chain = [hop('RunRecord', 50, ['element', '7']), hop('Array', 51, ['hidden', '1']), hop('system / Context', 52, ['internal', 'context']), ...runner];
  assert.equal(programPart(chain).length, 3);
  assert.match(chooseFix('RunRecord', chain), /^RunRecord objects are pushed into the array/);
});
