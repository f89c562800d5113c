// The work counter of `attach --counter`: a JavaScript expression the user names (`globalThis.turns`),
// read in the target without side effects just before each snapshot and, with `--every`, polled while
// waiting for the next one. It must yield a finite number; anything else is said in one line that names
// what came back. A bad expression on the first read is a usage error (exit 2); later reads only warn.
// What came back is described by its type and size, never its contents: a counter pointed at the
// wrong property (`cfg.apiKey`) must not print the key. An exception's message keeps only what the
// expression itself says; quoted text V8 took from the heap is replaced by its length.

import { AttachError, UsageError } from '../errors.js';
import { ConnectionClosedError } from './cdp-connection.js';
import type { PureEvaluation, RemoteValue, TargetSession } from './session.js';

/** How long one read may run in the target before V8 stops it (DevTools gives eager evaluation 500 ms). */
export const COUNTER_BUDGET_MS = 500;

export interface CounterOptions {
  /** A JavaScript expression evaluated in the target without side effects; must give a finite number. */
  readonly expression: string;
  /** Take the next snapshot once the counter advanced this far since the previous one. */
  readonly every?: number;
}

export type CounterRead = { readonly ok: true; readonly value: number } | { readonly ok: false; readonly problem: string };

const MAX_SHOWN = 40;

function plural(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/** `undefined`, `null`, `a string (2 chars)`, `a bigint`, `an object (Map)`, `a function`. */
export function describeRemoteValue(v: RemoteValue): string {
  switch (v.type) {
    case 'undefined':
      return 'undefined';
    case 'string':
      return `a string (${plural(String(v.value ?? '').length, 'char')})`;
    case 'boolean':
      return String(v.value);
    case 'bigint':
      return 'a bigint';
    case 'number':
      return v.unserializableValue ?? String(v.value);
    case 'symbol':
      return 'a symbol';
    case 'function':
      return 'a function';
    case 'object':
      // The class only: a description is a preview of the contents (an Error's message, a RegExp's source).
      return v.subtype === 'null' ? 'null' : `an object (${(v.className ?? 'Object').slice(0, MAX_SHOWN)})`;
    default:
      return v.type;
  }
}

/**
 * An exception or failure message from the target with quoted text that is not in the expression
 * replaced by its length: `(reading 'n')` of `cfg.n.x` stays, the JSON that `JSON.parse(cfg.apiKey)`
 * quotes back does not.
 */
export function withoutHeapText(message: string, expression: string): string {
  return message.replace(/(["'`])((?:(?!\1)[^\\]|\\.)*)\1/g, (whole, _q: string, inner: string) =>
    expression.includes(inner) ? whole : `<${plural(inner.length, 'char')}>`);
}

/** A finite number, or what went wrong. V8's side-effect refusal gets its own words. */
export function interpretCounter(evaluation: PureEvaluation, expression = ''): CounterRead {
  if ('problem' in evaluation) {
    const p = withoutHeapText(evaluation.problem, expression);
    if (/Possible side-effect/i.test(p)) {
      return { ok: false, problem: `was refused: V8 cannot prove it free of side effects (${p.replace(/^threw /, '')}); read a plain property such as globalThis.turns` };
    }
    return { ok: false, problem: p };
  }
  const v = evaluation.value;
  if (v.type === 'number') {
    if (typeof v.value === 'number' && Number.isFinite(v.value)) return { ok: true, value: v.value };
    if (v.unserializableValue === '-0') return { ok: true, value: 0 };
  }
  return { ok: false, problem: `returned ${describeRemoteValue(v)}, not a finite number` };
}

/** One read. Throws ConnectionClosedError when the target went away, nothing else. */
export async function readCounter(session: TargetSession, expression: string): Promise<CounterRead> {
  return interpretCounter(await session.evaluatePure(expression, COUNTER_BUDGET_MS), expression);
}

/** `--counter "globalThis.turns" returned undefined, not a finite number`. */
export function counterMessage(expression: string, problem: string): string {
  return `--counter ${JSON.stringify(expression)} ${problem}`;
}

/** The first read, before anything is written: a bad expression is the user's to fix (exit 2). */
export async function checkCounter(session: TargetSession, expression: string): Promise<number> {
  let read: CounterRead;
  try {
    read = await readCounter(session, expression);
  } catch (err) {
    if (err instanceof ConnectionClosedError) throw new AttachError(`pid ${session.info.pid} closed the inspector connection before --counter could be read (it may have exited)`);
    throw err;
  }
  if (!read.ok) throw new UsageError(counterMessage(expression, read.problem));
  return read.value;
}
