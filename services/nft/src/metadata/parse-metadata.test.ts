import type { NftMetadata } from './nft-metadata.js';
import { METADATA_LIMITS, parseMetadata } from './parse-metadata.js';

const context = { ipfsGateway: 'https://ipfs.io/ipfs/', tokenId: 1n };
const empty: NftMetadata = { name: '', description: '', tags: [], content: {}, attributes: [], externalLinks: [] };
const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>';
const svgUrl = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;

describe('parseMetadata', () => {
  it('reads a full OpenSea-style document', () => {
    expect(
      parseMetadata(
        {
          name: '  Punk #1 ',
          description: 'A punk.',
          image: 'ipfs://QmImage/1.png',
          animation_url: 'https://cdn.example.com/1.mp4',
          external_url: 'https://example.com/punks/1',
          attributes: [
            { trait_type: 'Hat', value: 'Cap' },
            { trait_type: 'Level', value: 5, display_type: 'number' },
            { trait_type: 'Rare', value: true },
          ],
          tags: ['art', 'pixel'],
          keywords: ['pixel', 'punk'],
        },
        context,
      ),
    ).toEqual({
      name: 'Punk #1',
      description: 'A punk.',
      tags: ['art', 'pixel', 'punk'],
      content: {
        preview: { url: 'https://ipfs.io/ipfs/QmImage/1.png', contentType: 'image/png' },
        detail: { url: 'https://ipfs.io/ipfs/QmImage/1.png', contentType: 'image/png' },
        video: { url: 'https://cdn.example.com/1.mp4', contentType: 'video/mp4' },
      },
      attributes: [
        { key: 'Hat', value: 'Cap' },
        { key: 'Level', value: '5' },
        { key: 'Rare', value: 'true' },
      ],
      externalLinks: [{ url: 'https://example.com/punks/1', type: 'website', name: 'Website' }],
    });
  });

  it.each<{ name: string; json: Record<string, unknown>; content: NftMetadata['content'] }>([
    {
      name: 'image_url when there is no image',
      json: { image_url: 'https://cdn.example.com/1.gif' },
      content: {
        preview: { url: 'https://cdn.example.com/1.gif', contentType: 'image/gif' },
        detail: { url: 'https://cdn.example.com/1.gif', contentType: 'image/gif' },
      },
    },
    {
      name: 'image before image_url',
      json: { image: 'https://cdn.example.com/a.webp', image_url: 'https://cdn.example.com/b.png' },
      content: {
        preview: { url: 'https://cdn.example.com/a.webp', contentType: 'image/webp' },
        detail: { url: 'https://cdn.example.com/a.webp', contentType: 'image/webp' },
      },
    },
    {
      name: 'raw SVG image_data as a data: URL',
      json: { image_data: `  ${svg}\n` },
      content: { preview: { url: svgUrl, contentType: 'image/svg+xml' }, detail: { url: svgUrl, contentType: 'image/svg+xml' } },
    },
    {
      name: 'SVG image_data with an XML declaration',
      json: { image_data: `<?xml version="1.0"?>\n${svg}` },
      content: {
        preview: { url: `data:image/svg+xml;base64,${Buffer.from(`<?xml version="1.0"?>\n${svg}`).toString('base64')}`, contentType: 'image/svg+xml' },
        detail: { url: `data:image/svg+xml;base64,${Buffer.from(`<?xml version="1.0"?>\n${svg}`).toString('base64')}`, contentType: 'image/svg+xml' },
      },
    },
    {
      name: 'a data: image keeps its own type',
      json: { image: 'data:image/png;base64,iVBORw0KGgo=' },
      content: {
        preview: { url: 'data:image/png;base64,iVBORw0KGgo=', contentType: 'image/png' },
        detail: { url: 'data:image/png;base64,iVBORw0KGgo=', contentType: 'image/png' },
      },
    },
    {
      name: 'an image of unknown type',
      json: { image: 'https://api.example.com/render/1' },
      content: {
        preview: { url: 'https://api.example.com/render/1', contentType: '' },
        detail: { url: 'https://api.example.com/render/1', contentType: '' },
      },
    },
    {
      name: 'audio animation_url by extension',
      json: { image: 'https://cdn.example.com/1.jpg', animation_url: 'ipfs://QmSong/track.mp3' },
      content: {
        preview: { url: 'https://cdn.example.com/1.jpg', contentType: 'image/jpeg' },
        detail: { url: 'https://cdn.example.com/1.jpg', contentType: 'image/jpeg' },
        audio: { url: 'https://ipfs.io/ipfs/QmSong/track.mp3', contentType: 'audio/mpeg' },
      },
    },
    {
      name: 'video animation_url by data: type',
      json: { animation_url: 'data:video/webm;base64,GkXf' },
      content: { video: { url: 'data:video/webm;base64,GkXf', contentType: 'video/webm' } },
    },
    {
      name: 'other animation_url as the detail',
      json: { image: 'https://cdn.example.com/1.png', animation_url: 'https://app.example.com/1.html' },
      content: {
        preview: { url: 'https://cdn.example.com/1.png', contentType: 'image/png' },
        detail: { url: 'https://app.example.com/1.html', contentType: '' },
      },
    },
    {
      name: 'URLs a client must not be handed',
      json: { image: 'javascript:alert(1)', image_url: 'file:///etc/passwd', image_data: 'not svg', animation_url: 'ar://x' },
      content: {},
    },
    { name: 'non-string media', json: { image: 42, image_url: { url: 'x' }, animation_url: null }, content: {} },
  ])('content: $name', ({ json, content }) => {
    expect(parseMetadata(json, context)?.content).toEqual(content);
  });

  it.each<{ name: string; attributes: unknown; expected: NftMetadata['attributes'] }>([
    {
      name: 'the {key: value} form',
      attributes: { Hat: 'Cap', Level: 5 },
      expected: [
        { key: 'Hat', value: 'Cap' },
        { key: 'Level', value: '5' },
      ],
    },
    {
      name: 'junk entries dropped',
      attributes: [
        null,
        'Hat',
        7,
        { value: 'no trait' },
        { trait_type: 'Obj', value: { a: 1 } },
        { trait_type: ' ', value: 'x' },
        { trait_type: 'Ok', value: ' v ' },
      ],
      expected: [{ key: 'Ok', value: 'v' }],
    },
    { name: 'numeric trait types', attributes: [{ trait_type: 1, value: 2.5 }], expected: [{ key: '1', value: '2.5' }] },
    { name: 'not a list or object', attributes: 'Hat: Cap', expected: [] },
    { name: 'non-finite numbers', attributes: { a: Number.NaN }, expected: [] },
  ])('attributes: $name', ({ attributes, expected }) => {
    expect(parseMetadata({ attributes }, context)?.attributes).toEqual(expected);
  });

  it.each<{ name: string; json: Record<string, unknown>; expected: Partial<NftMetadata> }>([
    { name: 'an empty object', json: {}, expected: empty },
    { name: 'non-string name and description', json: { name: 5, description: ['x'] }, expected: { name: '', description: '' } },
    { name: 'NUL removed', json: { name: 'A\0B' }, expected: { name: 'AB' } },
    { name: 'tags: junk dropped, duplicates once', json: { tags: ['a', 1, null, ' ', ' a '], keywords: 'b,c' }, expected: { tags: ['a'] } },
    {
      name: 'external_url through the gateway',
      json: { external_url: 'ipfs://QmSite/' },
      expected: { externalLinks: [{ url: 'https://ipfs.io/ipfs/QmSite/', type: 'website', name: 'Website' }] },
    },
    { name: 'external_url that is not a website', json: { external_url: 'data:text/html,<p>hi</p>' }, expected: { externalLinks: [] } },
    { name: 'external_url junk', json: { external_url: 'example.com' }, expected: { externalLinks: [] } },
  ])('fields: $name', ({ json, expected }) => {
    expect(parseMetadata(json, context)).toMatchObject(expected);
  });

  it('caps strings and lists', () => {
    const metadata = parseMetadata(
      {
        name: `${'n'.repeat(300)}`,
        description: 'd'.repeat(6_000),
        attributes: Array.from({ length: 150 }, (_, i) => ({ trait_type: `t${i}`, value: 'v'.repeat(2_000) })),
        tags: Array.from({ length: 80 }, (_, i) => `tag${i}`),
      },
      context,
    )!;
    expect(metadata.name).toHaveLength(METADATA_LIMITS.name);
    expect(metadata.description).toHaveLength(METADATA_LIMITS.description);
    expect(metadata.attributes).toHaveLength(METADATA_LIMITS.attributes);
    expect(metadata.attributes[0]!.value).toHaveLength(METADATA_LIMITS.attributeValue);
    expect(metadata.tags).toHaveLength(METADATA_LIMITS.tags);
  });

  it('caps by code point, never splitting an emoji', () => {
    const name = parseMetadata({ name: `${'a'.repeat(199)}😀😀` }, context)!.name;
    expect(name).toBe(`${'a'.repeat(199)}😀`);
  });

  it.each([[null], [[]], [['a']], ['name'], [42], [true]])('is undefined for %p', (json) => {
    expect(parseMetadata(json, context)).toBeUndefined();
  });
});
