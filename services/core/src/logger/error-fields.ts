/**
 * What a log line says of an error: its type, a bounded message, its code or status, the host it
 * was talking to, and its causes. Never the request it carried: viem's RPC errors hold the whole
 * JSON-RPC body (`body`, and a copy in `message`), one 2.2 MB warning per timed-out batch filled a
 * disk, and a provider URL's path can hold its API key.
 */
export function errorFields(error: unknown, depth = 0): unknown {
  if (typeof error !== 'object' || error === null) return boundedText(String(error));
  const fields: Record<string, unknown> = {};
  const record = error as Record<string, unknown>;
  fields.type = (error as { constructor?: { name?: string } }).constructor?.name ?? 'Object';
  // viem keeps the one-line reason apart from the message that appends the URL and request body.
  const message = typeof record.shortMessage === 'string' ? record.shortMessage : typeof record.message === 'string' ? record.message : undefined;
  if (message !== undefined) fields.message = boundedText(message);
  for (const key of ['code', 'status', 'details', 'reason', 'errno', 'syscall'] as const) {
    const value = record[key];
    if (typeof value === 'number' || typeof value === 'boolean') fields[key] = value;
    else if (typeof value === 'string') fields[key] = boundedText(value);
  }
  if (typeof record.url === 'string') fields.host = hostOf(record.url);
  if (Array.isArray(record.body)) fields.requests = record.body.length;
  else if (typeof record.body === 'string') fields.bodyBytes = Buffer.byteLength(record.body);
  if (typeof record.stack === 'string')
    fields.stack = record.stack
      .split('\n')
      .slice(1, 9)
      .map((line) => boundedText(line.trim(), 300))
      .join('\n');
  if (record.cause !== undefined && depth < 3) fields.cause = errorFields(record.cause, depth + 1);
  return fields;
}

/** A URL's host: what a log may say of where a request went (its path and query may hold a key). */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'unparseable URL';
  }
}

/**
 * `text` with every URL cut to its scheme and host, request bodies left out, and at most `max`
 * characters: an exception's message may quote any of them.
 */
export function boundedText(text: string, max = 1_000): string {
  const cleaned = text
    .replace(/^\s*Request body: .*$/gm, 'Request body: (not logged)')
    .replace(/\b(https?|wss?):\/\/([^/\s"'?#]+)[^\s"']*/g, (_url, scheme: string, host: string) => `${scheme}://${host.replace(/^[^@]*@/, '')}/…`);
  return cleaned.length <= max ? cleaned : `${cleaned.slice(0, max)}… (${cleaned.length - max} more characters)`;
}
