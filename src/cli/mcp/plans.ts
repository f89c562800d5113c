// plan_capture's plans: attach's preflight (from /proc only, no signal sent) with a verdict on whether a
// capture may go ahead, kept under an id until `capture` uses it. A plan names its process by pid AND
// start time, so a pid reused by another process after the plan is refused rather than captured.

import { randomUUID } from 'node:crypto';
import { runPreflight, type Preflight } from '../../attach/preflight.js';
import { readProcessStart } from '../../attach/process-start.js';
import { targetFilesystemRefusal } from '../../attach/target-write.js';
import { AttachError, UsageError } from '../../errors.js';
import { planLines } from '../../report/attach-report.js';

/** How long a plan stays good: the process's memory and sockets it describes change. */
const PLAN_TTL_MS = 10 * 60_000;

export interface CapturePlan {
  readonly planId: string;
  readonly pid: number;
  readonly decision: 'proceed' | 'refuse';
  /** Why not (when refused): the preflight's refusals and the signal's. */
  readonly refusals: readonly string[];
  readonly isNode: boolean;
  readonly uid: Preflight['uid'];
  /** How the inspector is reached: an --inspect one left open, or SIGUSR1 (then closed again). */
  readonly inspector: string;
  /** How each snapshot reaches leakhunt: written by the target into the output directory, or streamed. */
  readonly snapshotTransfer: { readonly method: 'target-wrote' | 'streamed'; readonly reason?: string };
  readonly rssBytes: number;
  readonly memory: Preflight['memory'];
  /** The plan as `leakhunt attach` prints it. */
  readonly lines: readonly string[];
  readonly expiresAt: string;
}

interface Kept {
  readonly plan: CapturePlan;
  readonly startTicks: number | undefined;
}

export class PlanStore {
  private readonly plans = new Map<string, Kept>();

  make(pid: number, work: string): CapturePlan {
    if (!Number.isInteger(pid) || pid <= 0) throw new UsageError(`pid must be a positive integer, got ${pid}`);
    const p = runPreflight(pid);
    const signalRefusal = p.flags.inspectAtStart ? undefined : p.signal.refusal;
    const refusals = [...p.refusals, ...(signalRefusal ? [signalRefusal] : [])];
    const fsRefusal = targetFilesystemRefusal(pid);
    const plan: CapturePlan = {
      planId: randomUUID(),
      pid,
      decision: refusals.length > 0 ? 'refuse' : 'proceed',
      refusals,
      isNode: p.isNode,
      uid: p.uid,
      inspector: p.flags.inspectAtStart
        ? `started with --inspect (${p.flags.host}:${p.flags.port}): used and left open`
        : signalRefusal ? `REFUSED: ${signalRefusal}` : 'SIGUSR1 opens its inspector; closed again when done',
      snapshotTransfer: fsRefusal === undefined ? { method: 'target-wrote' } : { method: 'streamed', reason: fsRefusal },
      rssBytes: p.rssBytes,
      memory: p.memory,
      lines: planLines(p, work, true),
      expiresAt: new Date(Date.now() + PLAN_TTL_MS).toISOString(),
    };
    this.plans.set(plan.planId, { plan, startTicks: readProcessStart(pid)?.startTicks });
    return plan;
  }

  /** The plan `planId` names, still good for its process; throws a one-line reason otherwise. */
  take(planId: string): CapturePlan {
    const kept = this.plans.get(planId);
    if (!kept) throw new UsageError(`no plan ${planId}: call plan_capture first (plans last ${PLAN_TTL_MS / 60_000} minutes)`);
    const { plan } = kept;
    if (Date.parse(plan.expiresAt) < Date.now()) {
      this.plans.delete(planId);
      throw new UsageError(`plan ${planId} expired at ${plan.expiresAt}: call plan_capture again`);
    }
    if (plan.decision === 'refuse') throw new AttachError(`the plan for pid ${plan.pid} refused the capture: ${plan.refusals.join('; ')}`);
    const now = readProcessStart(plan.pid)?.startTicks;
    if (now === undefined || now !== kept.startTicks) {
      this.plans.delete(planId);
      throw new AttachError(`pid ${plan.pid} is not the process the plan was made for (it exited, or the pid was reused): call plan_capture again`);
    }
    return plan;
  }
}
