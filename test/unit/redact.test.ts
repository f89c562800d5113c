// The one redaction rule (src/analysis/redact.ts): names that read as code are shown, names that may be
// data (keys, ids, addresses, tokens) are `<key, N chars>`, RegExp sources never.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isCodeLikeName, shownKey, shownRegExp } from '../../src/analysis/redact.js';

test('names that read as code are shown', () => {
  for (const name of [
    'turns', '_client', 'kResourceStore', '__proto__', '$0', 'XMLHttpRequest', 'toJSON', 'isNaN', 'int32Array', 'x86_64', 'utf8', 'http2',
    '17', '123456789', '<symbol kResourceStore>', '<symbol>', '<symbol Symbol.iterator>', '<symbol nodejs.util.inspect.custom>',
    'Symbol(lc:child_config)', 'Symbol(foo)', 'config-change', 'http:request', 'get TextDecoder', 'set atob', '#compare',
    '--max-old-space-size', 'node:internal/timers', '/app/node_modules/@langchain/core/dist/index.js', 'lodash@4.17.21', 'größe',
  ]) {
    assert.ok(isCodeLikeName(name), name);
    assert.equal(shownKey(name), name);
  }
});

test('names that may be data are shown by their length', () => {
  for (const name of [
    'sk-live-PROPNAME9996', 'alice.secret9996@example.com', 'user@example.com', 'sess_9f8a7b6c5d4e3f21', 'sess-1a-x',
    'tok4eC39HqLyjWDarjtT1zdp7dc', 'sk_live_4eC39HqLyjWDarjtT1zdp7dc', '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed',
    'f47ac10b-58cc-4372-a567-0e02b2c3d479', '3f2a9c1e-7d41-4f7a-9a0e-2b1c5d6e7f80', 'Bearer abc.def', 'a b', 'tok_9f8e7d6c5b4a#1',
    'AbCdEfGhIjKlMnOp', '4111111111111111', '<symbol sk-live-SYMBOL9996>', 'Symbol(alice@example.com)', 'get sess_9f8a7b6c5d4e3f21',
    'x'.repeat(65), 'user=alice', 'a+b', '"quoted"', 'GET /items/12345',
  ]) {
    assert.ok(!isCodeLikeName(name), name);
    assert.equal(shownKey(name), `<key, ${name.length} chars>`);
  }
});

test('a RegExp source is never shown', () => {
  assert.equal(shownRegExp('sk-live-REGEXP[0-9]+6'), '<regexp, 21 chars>');
});
