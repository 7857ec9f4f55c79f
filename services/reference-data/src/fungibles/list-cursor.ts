import { invalidArgument } from '@wallet-api/core/grpc';

/** Where a page of the fungibles list starts, under which ranking snapshot. */
export interface ListCursor {
  offset: number;
  generation: number;
}

const prefix = 'f1.';

/** Opaque to clients: base64url of the two numbers, versioned so a later shape can tell old cursors apart. */
export function encodeCursor(cursor: ListCursor): string {
  return `${prefix}${Buffer.from(`${cursor.offset}:${cursor.generation}`).toString('base64url')}`;
}

export function decodeCursor(text: string): ListCursor {
  const refused = () => invalidArgument(`page[after]: ${text.slice(0, 64)} is not a cursor this endpoint returned (follow links.next)`);
  if (!text.startsWith(prefix)) throw refused();
  const match = /^(\d{1,9}):(\d{1,15})$/.exec(Buffer.from(text.slice(prefix.length), 'base64url').toString('utf8'));
  if (!match) throw refused();
  return { offset: Number(match[1]), generation: Number(match[2]) };
}
