import { dataUriMediaType } from './data-uri.js';

// The formats wallets render; anything else is left to the client to sniff ('').
const BY_EXTENSION: Readonly<Record<string, string>> = {
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
};

/** The content type of a media URL: a data: URL's own, else its file extension's, else ''. */
export function mediaTypeOf(url: string): string {
  const dataType = dataUriMediaType(url);
  if (dataType !== undefined) return dataType;
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return '';
  }
  const extension = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase();
  return extension === undefined ? '' : (BY_EXTENSION[extension] ?? '');
}
