import type { Hex } from 'viem';
import type { CallFrame } from '../fetch/block-bundle.js';
import type { ReceiptLog } from '../decode/log-event.js';

/** A log of a `callTracer` frame with `withLog: true`: `position` is how many child calls the frame made before it. */
export interface TracedLog {
  address: Hex;
  topics: Hex[];
  data: Hex;
  position?: Hex;
}

/** A call frame of a simulation traced with `{ tracer: 'callTracer', tracerConfig: { withLog: true } }`. */
export type LoggedCallFrame = Omit<CallFrame, 'calls'> & { logs?: TracedLog[]; calls?: LoggedCallFrame[] };

/**
 * The logs a receipt would hold, in execution order: each frame's logs interleaved with its child
 * calls by `position`. A reverted frame's logs are undone with everything below it, as a mined
 * transaction's receipt leaves them out.
 */
export function simulatedLogs(root: LoggedCallFrame): ReceiptLog[] {
  const logs: ReceiptLog[] = [];
  const visit = (frame: LoggedCallFrame) => {
    if (frame.error !== undefined) return;
    const children = frame.calls ?? [];
    const own = (frame.logs ?? []).map((log) => ({ log, position: log.position === undefined ? 0 : Number(BigInt(log.position)) }));
    children.forEach((child, index) => {
      for (const { log } of own.filter(({ position }) => position === index)) logs.push({ address: log.address, topics: log.topics, data: log.data });
      visit(child);
    });
    for (const { log } of own.filter(({ position }) => position >= children.length)) logs.push({ address: log.address, topics: log.topics, data: log.data });
  };
  visit(root);
  return logs;
}

/** The frames of a simulation as the mined decoder reads them (its logs are read separately). */
export function withoutLogs(frame: LoggedCallFrame): CallFrame {
  const { logs: _logs, calls, ...rest } = frame;
  return { ...rest, ...(calls ? { calls: calls.map(withoutLogs) } : {}) };
}
