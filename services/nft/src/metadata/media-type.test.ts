import { mediaTypeOf } from './media-type.js';

describe('mediaTypeOf', () => {
  it.each([
    ['https://example.com/1.svg', 'image/svg+xml'],
    ['https://example.com/1.PNG', 'image/png'],
    ['https://example.com/1.jpg?size=large#x', 'image/jpeg'],
    ['https://example.com/1.jpeg', 'image/jpeg'],
    ['https://example.com/a.b/1.gif', 'image/gif'],
    ['https://example.com/1.webp', 'image/webp'],
    ['https://example.com/1.mp4', 'video/mp4'],
    ['https://example.com/1.webm', 'video/webm'],
    ['https://example.com/1.mp3', 'audio/mpeg'],
    ['https://example.com/1.wav', 'audio/wav'],
    ['https://example.com/1.html', ''],
    ['https://example.com/1', ''],
    ['https://example.com/images/', ''],
    ['https://example.com/image?format=png', ''],
    ['data:image/svg+xml;base64,PHN2Zz4=', 'image/svg+xml'],
    ['data:video/mp4;base64,AAAA', 'video/mp4'],
    ['not a url', ''],
  ])('%s -> %p', (url, expected) => {
    expect(mediaTypeOf(url)).toBe(expected);
  });
});
