/** The longest line a service writes to its log. */
export const maxLogLineBytes = 16 * 1024;

/**
 * A log destination writing each line to `write` as it is, or, when longer than `maxLogLineBytes`,
 * a line of the same level, time and message saying how long it was: no caller's field (a quoted
 * response, a list of thousands) can make one line fill a disk, or a log collector drop it.
 */
export function boundedLines(write: (line: string) => void): { write(line: string): void } {
  return {
    write(line) {
      if (line.length <= maxLogLineBytes / 4 || Buffer.byteLength(line) <= maxLogLineBytes) {
        write(line);
        return;
      }
      let kept: Record<string, unknown> = {};
      try {
        const { level, time, service, name, msg, trace_id, span_id } = JSON.parse(line) as Record<string, unknown>;
        kept = { level, time, service, name, trace_id, span_id, msg: typeof msg === 'string' ? msg.slice(0, 1_000) : undefined };
      } catch {
        // Not JSON: only its length is said.
      }
      write(`${JSON.stringify({ ...kept, cutLogLineBytes: Buffer.byteLength(line) })}\n`);
    },
  };
}
