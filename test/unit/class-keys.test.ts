// Class names and keys: type names, constructor names, property-shape names of plain objects, locations;
// and the per-class summary with top-most retained sizes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphBuilder } from '../helpers/graph-builder.js';
import { analyzeHeap, classNameOf, computeClassIndex } from '../../src/analysis/index.js';

function classNames(b: GraphBuilder): string[] {
  const index = computeClassIndex(b.toGraph());
  return [...index.classOf].map((c) => index.names[c]!);
}

test('names by node type, as the DevTools Summary groups them', () => {
  const b = new GraphBuilder();
  b.node('synthetic', '', 0);
  b.node('hidden', 'system / Context', 1);
  b.node('array', '(object elements)', 1);
  b.node('string', 'hello', 1);
  b.node('concatenated string', 'hello world', 1);
  b.node('sliced string', 'ello', 1);
  b.node('code', 'foo', 1);
  b.node('closure', 'foo', 1);
  b.node('regexp', '/a+/', 1);
  b.node('number', 'heap number', 1);
  b.node('native', 'Node / TCPSocketWrap', 1);
  b.node('native', '<div id="x">', 1);
  b.node('object', 'Foo', 1);
  b.node('symbol', 'Symbol(x)', 1);
  b.node('bigint', 'bigint', 1);
  b.node('object shape', 'system / Map', 1);
  b.node('object', 'Object', 1);
  assert.deepEqual(classNames(b), [
    '(synthetic)', '(system)', '(array)', '(string)', '(concatenated string)', '(sliced string)',
    '(compiled code)', 'Function', 'RegExp', '(number)', 'Node / TCPSocketWrap', '<div>', 'Foo',
    '(symbol)', '(bigint)', '(object shape)', 'Object',
  ]);
  const g = b.toGraph();
  assert.equal(classNameOf(g, 12), 'Foo');
  assert.equal(classNameOf(g, 16), 'Object');
});

function plainObject(b: GraphBuilder, props: string[], extra: (o: number) => void = () => {}): number {
  const o = b.node('object', 'Object', 16);
  const v = b.node('number', 'heap number', 1);
  for (const p of props) b.edge(o, v, 'property', p);
  extra(o);
  return o;
}

test('plain objects are named by their property shape', () => {
  const b = new GraphBuilder();
  b.node('synthetic', '', 0);
  const proto = b.node('object', 'Object', 1);
  const withProto = (o: number) => b.edge(o, proto, 'property', '__proto__');
  const abc1 = plainObject(b, ['a', 'b', 'c'], withProto);
  const abc2 = plainObject(b, ['a', 'b', 'c']);
  const reordered = plainObject(b, ['c', 'a', 'b']);
  const superset = plainObject(b, ['d', 'a', 'b', 'c', 'e']);
  const xy1 = plainObject(b, ['x', 'y']);
  const xy2 = plainObject(b, ['x', 'y']);
  const lonely = plainObject(b, ['z']);
  const empty = plainObject(b, [], withProto);
  const quoted1 = plainObject(b, ['a,b', 'it\'s']);
  const quoted2 = plainObject(b, ['a,b', 'it\'s']);
  const names = classNames(b);
  for (const o of [abc1, abc2, reordered, superset]) assert.equal(names[o], '{a, b, c}', `node ${o}`);
  assert.equal(names[xy1], '{x, y}');
  assert.equal(names[xy2], '{x, y}');
  assert.equal(names[lonely], 'Object', 'a shape seen once defines no name');
  assert.equal(names[empty], 'Object');
  assert.equal(names[proto], 'Object');
  // Property names with punctuation may be data: the class name shows them by length (analysis/redact.ts).
  assert.equal(names[quoted1], '{<key, 3 chars>, <key, 4 chars>}');
  assert.equal(names[quoted2], '{<key, 3 chars>, <key, 4 chars>}');
});

test('shape names stop growing past 120 characters, and the best match has the most properties', () => {
  const b = new GraphBuilder();
  b.node('synthetic', '', 0);
  const long = Array.from({ length: 20 }, (_, i) => `property_${String(i).padStart(2, '0')}`);
  const l1 = plainObject(b, long);
  const l2 = plainObject(b, long);
  const ab1 = plainObject(b, ['a', 'b']);
  const ab2 = plainObject(b, ['a', 'b']);
  const ab3 = plainObject(b, ['a', 'b']);
  const abc1 = plainObject(b, ['a', 'b', 'c']);
  const abc2 = plainObject(b, ['a', 'b', 'c']);
  const names = classNames(b);
  // '{' + 9 names of 11 chars joined by ', ' is 1 + 9*11 + 8*2 = 116; a tenth would pass 120.
  assert.equal(names[l1], `{${long.slice(0, 9).join(', ')}}`);
  assert.equal(names[l2], names[l1]);
  for (const o of [ab1, ab2, ab3]) assert.equal(names[o], '{a, b}');
  for (const o of [abc1, abc2]) assert.equal(names[o], '{a, b, c}', 'more properties beat more objects');
});

test('objects with a constructor location get one class per location, same name', () => {
  const b = new GraphBuilder();
  b.node('synthetic', '', 0);
  const f1 = b.node('object', 'Foo', 10);
  const f2 = b.node('object', 'Foo', 10);
  const f3 = b.node('object', 'Foo', 10);
  const f4 = b.node('object', 'Foo', 10);
  const fn = b.node('closure', 'Foo', 10);
  b.location(f1, 7, 10, 2).location(f2, 7, 10, 2).location(f3, 8, 1, 0).location(fn, 9, 9, 9);
  const index = computeClassIndex(b.toGraph());
  const c = (n: number) => index.classOf[n]!;
  assert.equal(c(f1), c(f2));
  assert.notEqual(c(f1), c(f3));
  assert.notEqual(c(f1), c(f4));
  assert.deepEqual([f1, f3, f4].map((n) => index.names[c(n)]), ['Foo', 'Foo', 'Foo']);
  assert.deepEqual([f1, f3, f4, fn].map((n) => index.keys[c(n)]), ['7,10,2,Foo', '8,1,0,Foo', ',Foo', ',Function']);
});

test('class summary: count and self size over non-empty members, retained size of top-most members only', () => {
  const b = new GraphBuilder();
  const root = b.node('synthetic', '', 0);
  const global = b.node('object', 'global', 1);
  const l1 = b.node('object', 'Link', 10);
  const l2 = b.node('object', 'Link', 10);
  const l3 = b.node('object', 'Link', 10);
  const x = b.node('object', 'Other', 5);
  const empty = b.node('object', 'Link', 0);
  const l4 = b.node('object', 'Link', 100);
  const big1 = b.node('object', 'Big', 2 ** 32);
  const big2 = b.node('object', 'Big', 2 ** 32);
  b.edge(root, global, 'shortcut', '1').edge(global, l1, 'property', 'head');
  b.edge(l1, l2, 'property', 'next').edge(l2, l3, 'property', 'next').edge(l2, x, 'property', 'x');
  b.edge(global, empty, 'property', 'e').edge(empty, l4, 'property', 'next');
  b.edge(global, big1, 'property', 'b1').edge(global, big2, 'property', 'b2');
  const rows = new Map(analyzeHeap(b.toGraph()).classSummary().map((r) => [r.name, r]));
  const link = rows.get('Link')!;
  assert.equal(link.count, 4, 'the empty member is not counted');
  assert.equal(link.selfSize, 130);
  assert.equal(link.retainedSize, 35 + 100, 'l1 hides l2 and l3; the empty member hides nothing');
  assert.equal(link.distance, 2);
  assert.equal(rows.get('Other')!.retainedSize, 5);
  assert.equal(rows.get('Big')!.retainedSize, 2 ** 33);
  assert.equal(rows.get('(synthetic)'), undefined, 'a class with only empty members has no row');
});

test('topDominated: largest retained first, no root and no synthetic nodes', () => {
  const b = new GraphBuilder();
  const root = b.node('synthetic', '', 0);
  const gcRoots = b.node('synthetic', '(GC roots)', 0);
  const a = b.node('object', 'A', 10);
  const c = b.node('object', 'C', 300);
  const d = b.node('object', 'D', 20);
  const e = b.node('object', 'E', 20);
  b.edge(root, gcRoots, 'element', 1).edge(gcRoots, a, 'element', 1).edge(a, c, 'property', 'c');
  b.edge(gcRoots, d, 'element', 2).edge(gcRoots, e, 'element', 3);
  const analysis = analyzeHeap(b.toGraph());
  assert.deepEqual([...analysis.topDominated(3)], [a, c, d]);
  assert.deepEqual([...analysis.topDominated(10)], [a, c, d, e]);
  assert.deepEqual([...analysis.topDominated(0)], []);
});

test('detachedness spreads to natives of unknown state; detached natives are classed "Detached …"', () => {
  const b = new GraphBuilder();
  const root = b.node('synthetic', '', 0);
  const attached = b.node('native', 'Node / A', 8, { detachedness: 1 });
  const viaAttached = b.node('native', 'Node / B', 8);
  const detached = b.node('native', 'Node / C', 8, { detachedness: 2 });
  const viaDetached = b.node('native', 'Node / B', 8);
  const behindJs = b.node('native', 'Node / B', 8);
  const js = b.node('object', 'Js', 8);
  const hiddenOnly = b.node('native', 'Node / B', 8);
  const tag = b.node('native', '<div id="x">', 8, { detachedness: 2 });
  b.edge(root, attached, 'element', 1).edge(root, detached, 'element', 2);
  b.edge(attached, viaAttached, 'element', 1).edge(detached, viaAttached, 'element', 1);
  b.edge(detached, viaDetached, 'element', 2).edge(detached, js, 'property', 'js').edge(js, behindJs, 'property', 'n');
  b.edge(detached, hiddenOnly, 'hidden', 3);
  const names = classNames(b);
  assert.deepEqual([attached, viaAttached, detached, viaDetached, behindJs, js, hiddenOnly, tag].map((n) => names[n]), [
    'Node / A', 'Node / B', 'Detached Node / C', 'Detached Node / B', 'Node / B', 'Js', 'Node / B', 'Detached <div>',
  ]);
});
