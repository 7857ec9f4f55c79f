import { getAddress, parseEther } from 'viem';
import { hostedCollections } from '../../metadata-server/index.js';
import type { DeployContext } from '../../world/index.js';
import type { NftsManifest } from './manifest.js';

/** Where `startMetadataServer` listens when the world builder does not say otherwise. */
export const defaultMetadataBaseUrl = 'http://127.0.0.1:18600/';

const mintPrice = parseEther('0.01');
const editionCount = 6n;

function metadataBaseUrl(deployed: DeployContext['deployed']): string {
  const configured = (deployed.metadata as { baseUrl?: string } | undefined)?.baseUrl ?? defaultMetadataBaseUrl;
  return configured.endsWith('/') ? configured : `${configured}/`;
}

export async function deployNfts(context: DeployContext): Promise<NftsManifest> {
  const { session, artifacts, deployer } = context;
  const deploy = (name: string, args: readonly unknown[]) => {
    const artifact = artifacts[name];
    if (!artifact) throw new Error(`contract ${name} was not compiled`);
    return session.deploy(artifact, args, deployer, context.clock()).then(getAddress);
  };
  const baseUrl = metadataBaseUrl(context.deployed);
  const glyphs = await deploy('DevnetChainGlyphs', [mintPrice, deployer]);
  const birds = await deploy('DevnetHarborBirds', [`${baseUrl}${hostedCollections.harborBirds}/`]);
  const passes = await deploy('DevnetFieldPasses', [`${baseUrl}${hostedCollections.fieldPasses}/`, editionCount]);
  const spam = await deploy('DevnetSpamNft', [deployer]);
  const market = await deploy('DevnetNftMarket', []);
  return {
    collections: [
      { kind: 'onchain-art', standard: 'erc721', name: 'Chain Glyphs', symbol: 'GLYPH', address: glyphs },
      { kind: 'hosted', standard: 'erc721', name: 'Harbor Birds', symbol: 'BIRD', address: birds },
      { kind: 'editions', standard: 'erc1155', name: 'Field Passes', symbol: 'PASS', address: passes },
      { kind: 'spam', standard: 'erc721', name: '🎁 Reward Pass - claim at nft-rewards.xyz', symbol: 'REWARD', address: spam },
    ],
    market,
    mintPriceWei: mintPrice.toString(),
    metadataBaseUrl: baseUrl,
  };
}
