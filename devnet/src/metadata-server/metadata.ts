import { createHash } from 'node:crypto';

/** Collections whose metadata this server hosts, by the path segment in their token URIs. */
export const hostedCollections = { harborBirds: 'harbor-birds', fieldPasses: 'field-passes' } as const;

export type HostedCollection = (typeof hostedCollections)[keyof typeof hostedCollections];

export function isHostedCollection(value: string): value is HostedCollection {
  return (Object.values(hostedCollections) as string[]).includes(value);
}

const species = ['Gull', 'Cormorant', 'Tern', 'Puffin', 'Heron', 'Pelican', 'Sandpiper', 'Albatross'];
const perches = ['Bollard', 'Mast', 'Crane', 'Buoy', 'Pier', 'Lighthouse'];
const editions = ['Spring Meadow', 'Summer Dunes', 'Autumn Ridge', 'Winter Fjord', 'Night Harbor', 'Founders'];

/** Bytes that every trait and colour of a token is drawn from, the same on every run. */
function traitBytes(collection: HostedCollection, tokenId: bigint): Buffer {
  return createHash('sha256').update(`${collection}/${tokenId}`).digest();
}

export interface TokenMetadata {
  name: string;
  description: string;
  image: string;
  external_url: string;
  attributes: { trait_type: string; value: string | number }[];
}

/** The ERC-721/1155 metadata JSON of a token; its image is served next to it by the same server. */
export function tokenMetadata(collection: HostedCollection, tokenId: bigint, baseUrl: string): TokenMetadata {
  const bytes = traitBytes(collection, tokenId);
  const image = `${baseUrl}${collection}/${tokenId}.svg`;
  if (collection === 'harbor-birds') {
    return {
      name: `Harbor Bird #${tokenId}`,
      description: 'Birds of the harbor, one per token, drawn by the devnet metadata server.',
      image,
      external_url: `${baseUrl}${collection}/${tokenId}.json`,
      attributes: [
        { trait_type: 'Species', value: species[bytes[0]! % species.length]! },
        { trait_type: 'Perch', value: perches[bytes[1]! % perches.length]! },
        { trait_type: 'Wingspan', value: 40 + (bytes[2]! % 160) },
      ],
    };
  }
  const edition = editions[Number((tokenId - 1n) % BigInt(editions.length))]!;
  return {
    name: `Field Pass: ${edition}`,
    description: 'An edition pass; every holder of this id holds the same pass.',
    image,
    external_url: `${baseUrl}${collection}/${tokenId}.json`,
    attributes: [
      { trait_type: 'Edition', value: edition },
      { trait_type: 'Tier', value: ['Common', 'Rare', 'Epic'][bytes[0]! % 3]! },
    ],
  };
}

export function tokenImage(collection: HostedCollection, tokenId: bigint): string {
  const bytes = traitBytes(collection, tokenId);
  const hue = (bytes[3]! * 360) >> 8;
  const accent = (bytes[4]! * 360) >> 8;
  const label = collection === 'harbor-birds' ? `BIRD #${tokenId}` : `PASS ${tokenId}`;
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200">',
    `<rect width="200" height="200" fill="hsl(${hue},60%,35%)"/>`,
    `<ellipse cx="100" cy="100" rx="${30 + (bytes[5]! % 50)}" ry="${20 + (bytes[6]! % 40)}" fill="hsl(${accent},75%,65%)"/>`,
    `<text x="100" y="188" text-anchor="middle" font-family="monospace" font-size="14" fill="#fff">${label}</text>`,
    '</svg>',
  ].join('');
}
