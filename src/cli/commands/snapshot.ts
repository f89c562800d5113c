// `leakhunt snapshot <pid> [-o FILE]`: one heap snapshot of a running process, with attach's preflight,
// port discovery and detach; the file (0600, written through FILE.partial) and its JSON beside it.
// Where it goes is checked before any signal (output-checks.ts): an existing FILE (or its JSON) is never
// replaced without --force, a missing or read-only directory and a full disk are exit 2.

import { resolve } from 'node:path';
import type { Command } from 'commander';
import { wantsProgress } from '../progress.js';
import { captureSnapshot, metaPathOf, snapshotMethodFor, type CapturedSnapshot } from '../../attach/capture.js';
import { ConnectionClosedError } from '../../attach/cdp-connection.js';
import type { InspectorEndpoint } from '../../attach/inspector-port.js';
import type { OpenedTarget } from '../../attach/open-target.js';
import { checkOutputFile, type OutputPlace } from '../../attach/output-place.js';
import { AttachError } from '../../errors.js';
import { methodText } from '../../report/attach-report.js';
import { formatBytes } from '../../report/format.js';
import { warn } from '../output.js';
import type { ExitStatus, GlobalOptions } from '../global-options.js';
import {
  addTargetOptions, assessSnapshot, installStopSignals, leftBehind, openWithPlan, printLines, targetAddressOf, transferNote, type TargetFlags,
} from './attach-common.js';
import { createCaptureProgress } from './attach-progress.js';
import { assessDiskSpace, refuseBeforeSignal } from './output-checks.js';

interface SnapshotFlags extends TargetFlags {
  output?: string;
  force?: boolean;
  json?: boolean;
  progress?: boolean;
}

function defaultFile(pid: number): string {
  const iso = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `./leakhunt-${pid}-${iso}.heapsnapshot`;
}

export function registerSnapshot(program: Command, _globals: () => GlobalOptions, status: ExitStatus): void {
  const command = program
    .command('snapshot')
    .argument('[pid]', 'the Node.js process (not needed with --port / --ws)')
    .description('take one heap snapshot of a running Node process, leaving it as it was found')
    .option('-o, --output <file>', 'where to write it (default ./leakhunt-<pid>-<time>.heapsnapshot)')
    .option('--force', 'take it even when the memory headroom or disk space check fails, and replace an existing file (never overrides the signal checks)')
    .option('--json', 'print what was written as JSON')
    .option('--progress', 'show progress on stderr even with --json')
    .option('--no-progress', 'never show progress');
  addTargetOptions(command)
    .addHelpText('after', `
Examples:
  $ leakhunt snapshot 4242 -o before.heapsnapshot
  $ leakhunt snapshot --port 9229 -o pod.heapsnapshot     an inspector already listening (port-forward)`)
    .action(async (pidArg: string | undefined, flags: SnapshotFlags, cmd: Command) => {
      const address = targetAddressOf(pidArg, flags);
      const json = flags.json === true;
      const showProgress = wantsProgress(cmd, flags.progress, !json);
      const force = flags.force === true;
      // Known before any signal unless only the session can tell the pid (--port / --ws without -o).
      const early = flags.output ?? (address.pid === undefined ? undefined : defaultFile(address.pid));
      let file = early === undefined ? '' : resolve(early);
      const placeOf = (path: string): OutputPlace => checkOutputFile(path, [metaPathOf(path)]);
      if (early !== undefined) refuseBeforeSignal(placeOf(file), force, '-o');
      const seen: { endpoint?: InspectorEndpoint } = {};
      let opened: OpenedTarget | undefined;
      const stop = installStopSignals('the snapshot', () => leftBehind(opened?.session, seen, address.pid));
      const progress = createCaptureProgress(showProgress, 1);
      let snapshot: CapturedSnapshot | undefined;
      let exited = false;
      try {
        opened = await openWithPlan(address, `one snapshot, into ${early ?? defaultFile(0)}${transferNote(address.pid)}`, seen);
        const { session } = opened;
        try {
          if (!stop.signal.aborted) {
            const { estimate } = assessSnapshot(opened, force);
            progress.expect(estimate);
            if (early === undefined) {
              file = resolve(defaultFile(session.info.pid));
              refuseBeforeSignal(placeOf(file), force, '-o');
            }
            assessDiskSpace(placeOf(file), estimate, 1, force, '-o'); // free space now, with the heap known
            printLines([`  method     ${methodText(snapshotMethodFor(session, file, address.pid))}`]);
            try {
              snapshot = await captureSnapshot(session, file, 1, stop.signal, progress, undefined, address.pid);
            } catch (err) {
              if (!(err instanceof ConnectionClosedError)) throw err;
              exited = true;
            }
          }
        } finally {
          progress.done();
          const detach = await session.detach();
          if (detach.openedByUs && !detach.inspectorClosed) warn(`the inspector of pid ${session.info.pid} ${detach.note}`);
          else if (detach.openedByUs) process.stderr.write(`leakhunt: inspector: ${detach.note}\n`);
        }
      } finally {
        stop.dispose();
      }
      if (stop.signal.aborted) {
        process.stderr.write(`leakhunt: stopped by ${String(stop.signal.reason)}: the snapshot in progress was removed\n`);
        status.raise(stop.exitCode());
        return;
      }
      if (exited) throw new AttachError(`the target went away during the snapshot; nothing was written to ${file}`);
      if (!snapshot || !opened) return;
      const info = opened.session.info;
      if (json) {
        process.stdout.write(`${JSON.stringify({ target: { pid: info.pid, nodeVersion: info.nodeVersion }, ...snapshot }, null, 2)}\n`);
      } else {
        process.stdout.write(`${snapshot.file}\n`);
        process.stderr.write(`leakhunt: wrote ${formatBytes(snapshot.bytes)} in ${(snapshot.durationMs / 1000).toFixed(1)} s (pid ${info.pid}, node ${info.nodeVersion}); details in ${snapshot.metaFile}\n`);
      }
    });
}
