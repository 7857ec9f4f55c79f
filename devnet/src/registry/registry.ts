// The dapp and token registry of a devnet world, in the shape reference-data reads from
// REGISTRY_PATHS (services/reference-data/src/registry/registry-config.ts): which contracts belong
// to which dapp, which tokens are the real ones and which are spam.
import { writeFile } from 'node:fs/promises';
import type { ChainWorld, Manifest } from '../manifest/index.js';
import type { DefiManifest } from '../protocols/defi/manifest.js';
import type { NftsManifest } from '../protocols/nfts/manifest.js';
import type { SmartWalletsManifest } from '../protocols/smart-wallets/manifest.js';
import type { TokensManifest } from '../protocols/tokens/manifest.js';
import type { UniswapManifest } from '../protocols/uniswap/manifest.js';
import { solanaRegistryEntries, withSolanaRegistryEntries } from '../solana/world-registry.js';
import type { DevnetRegistry, RegistryDapp, RegistryPricing, RegistryProtocols, RegistryToken } from './registry-shape.js';

type DappInfo = Omit<RegistryDapp, 'contracts'>;

const dapp = (id: string, name: string, description: string, url = ''): DappInfo => ({
  id,
  name,
  description,
  icon_url: '',
  url,
  manage_positions_url: '',
});

const dapps = {
  weth: dapp('weth', 'WETH', 'Wrapped Ether: ETH as an ERC-20 token, wrapped and unwrapped one to one.'),
  uniswapV2: dapp('uniswap-v2', 'Uniswap V2', 'Constant-product automated market maker: swaps and pooled liquidity.', 'https://app.uniswap.org'),
  uniswapV3: dapp(
    'uniswap-v3',
    'Uniswap V3',
    'Concentrated-liquidity automated market maker: swaps and liquidity positions held as NFTs.',
    'https://app.uniswap.org',
  ),
  vaults: dapp('devnet-vaults', 'Devnet Vaults', 'ERC-4626 yield vaults over USDC and WETH.'),
  staking: dapp('devnet-staking', 'Devnet Staking', 'Stakes GOV, with optional lock periods, for a stream of ORCH rewards.'),
  lending: dapp('devnet-lending', 'Devnet Lending', 'Supplies collateral and borrows against it.'),
  nftMarket: dapp('devnet-nft-market', 'Devnet NFT Market', 'Fixed-price NFT listings paid in ETH.'),
  nftCollections: dapp('devnet-nft-collections', 'Devnet NFT Collections', 'Mints of the devnet NFT collections.'),
  safe: dapp('devnet-safe', 'Devnet Safe', 'Creates Safe-style multisig wallets.'),
  smartAccounts: dapp('devnet-smart-accounts', 'Devnet Smart Accounts', 'ERC-4337 EntryPoint and account factory that run smart accounts.'),
} satisfies Record<string, DappInfo>;

/** Contracts of each dapp on one chain; a module missing from the world contributes nothing. */
function dappContracts(chain: ChainWorld): [DappInfo, string[]][] {
  const tokens = chain.protocols.tokens as TokensManifest | undefined;
  const uniswap = chain.protocols.uniswap as UniswapManifest | undefined;
  const defi = chain.protocols.defi as DefiManifest | undefined;
  const nfts = chain.protocols.nfts as NftsManifest | undefined;
  const smartWallets = chain.protocols.smartWallets as SmartWalletsManifest | undefined;
  const entries: [DappInfo, string[]][] = [];
  if (tokens) entries.push([dapps.weth, [tokens.weth]]);
  if (uniswap) {
    entries.push([dapps.uniswapV2, [uniswap.v2.factory, uniswap.v2.router, ...uniswap.v2.pairs.map((pair) => pair.address)]]);
    const { factory, positionManager, positionDescriptor, swapRouter, quoter, pools } = uniswap.v3;
    entries.push([dapps.uniswapV3, [factory, positionManager, positionDescriptor, swapRouter, quoter, ...pools.map((pool) => pool.address)]]);
  }
  if (defi) {
    entries.push([dapps.vaults, defi.vaults.map((vault) => vault.address)]);
    entries.push([dapps.staking, [defi.staking.address]]);
    entries.push([dapps.lending, [defi.lending.address]]);
  }
  if (nfts) {
    entries.push([dapps.nftMarket, [nfts.market]]);
    entries.push([dapps.nftCollections, nfts.collections.filter((collection) => collection.kind !== 'spam').map((collection) => collection.address)]);
  }
  if (smartWallets) {
    entries.push([dapps.safe, [smartWallets.safeFactory, smartWallets.safeSingleton]]);
    entries.push([dapps.smartAccounts, [smartWallets.entryPoint, smartWallets.accountFactory]]);
  }
  return entries;
}

const lower = (addresses: readonly string[]) => addresses.map((address) => address.toLowerCase());

/**
 * Well above the world's thin V3 pool (about 150 USD a side) and far below its real pools (millions),
 * so the devnet's prices come from the real pools only.
 */
export const devnetMinLiquidityUsd = 10_000;

function chainProtocols(chain: ChainWorld): RegistryProtocols | undefined {
  const uniswap = chain.protocols.uniswap as UniswapManifest | undefined;
  const defi = chain.protocols.defi as DefiManifest | undefined;
  const nfts = chain.protocols.nfts as NftsManifest | undefined;
  if (!uniswap && !defi && !nfts) return undefined;
  return {
    uniswap_v2: uniswap
      ? [{ factory: uniswap.v2.factory.toLowerCase(), pairs: lower(uniswap.v2.pairs.map((pair) => pair.address)), router: uniswap.v2.router.toLowerCase() }]
      : [],
    uniswap_v3: uniswap
      ? [
          {
            factory: uniswap.v3.factory.toLowerCase(),
            position_manager: uniswap.v3.positionManager.toLowerCase(),
            swap_router: uniswap.v3.swapRouter.toLowerCase(),
            quoter: uniswap.v3.quoter.toLowerCase(),
          },
        ]
      : [],
    vaults: defi ? lower(defi.vaults.map((vault) => vault.address)) : [],
    staking: defi ? lower([defi.staking.address]) : [],
    lending: defi ? lower([defi.lending.address]) : [],
    nft_markets: nfts ? lower([nfts.market]) : [],
  };
}

/** Prices route to the tokens module's `stable` tokens and its WETH; its `btc` tokens are the `btc` currency. */
function chainPricing(chain: ChainWorld): RegistryPricing | undefined {
  const tokens = chain.protocols.tokens as TokensManifest | undefined;
  const stables = (tokens?.tokens ?? []).filter((token) => token.kind === 'stable');
  if (!tokens || stables.length === 0) return undefined;
  return {
    usd_stablecoins: lower(stables.map((token) => token.address)),
    wrapped_native: tokens.weth.toLowerCase(),
    btc: lower(tokens.tokens.filter((token) => token.kind === 'btc').map((token) => token.address)),
    min_liquidity_usd: devnetMinLiquidityUsd,
  };
}

/**
 * Derives the registry from a world's manifest. The tokens module's real tokens are the verified
 * list, grouped across chains by symbol (fungible id = lowercase symbol, so WETH is `weth` as the
 * chains config names the wrapped native fungible); its `spam` tokens and the spam NFT collection
 * are the spam list. Stable tokens are classified `stablecoin`; the others stay unclassified.
 */
export function devnetRegistry(manifest: Manifest): DevnetRegistry {
  const registryDapps = new Map<string, RegistryDapp>();
  const tokens = new Map<string, RegistryToken>();
  const spam: Record<string, string[]> = {};
  const protocols: Record<string, RegistryProtocols> = {};
  const pricing: Record<string, RegistryPricing> = {};
  for (const chain of manifest.chains) {
    const chainProtocolsEntry = chainProtocols(chain);
    if (chainProtocolsEntry) protocols[chain.id] = chainProtocolsEntry;
    const chainPricingEntry = chainPricing(chain);
    if (chainPricingEntry) pricing[chain.id] = chainPricingEntry;
    for (const [info, contracts] of dappContracts(chain)) {
      const entry = registryDapps.get(info.id) ?? { ...info, contracts: {} };
      entry.contracts[chain.id] = lower(contracts);
      registryDapps.set(info.id, entry);
    }
    const tokensSection = chain.protocols.tokens as TokensManifest | undefined;
    const nfts = chain.protocols.nfts as NftsManifest | undefined;
    for (const token of tokensSection?.tokens ?? []) {
      if (token.kind === 'spam') continue;
      const fungibleId = token.symbol.toLowerCase();
      const entry: RegistryToken = tokens.get(fungibleId) ?? {
        fungible_id: fungibleId,
        symbol: token.symbol,
        name: token.name,
        icon_url: '',
        implementations: [],
        ...(token.kind === 'stable' ? { asset_class: 'stablecoin' as const } : {}),
        non_circulating_holders: [],
      };
      entry.implementations.push({ chain_id: chain.id, address: token.address.toLowerCase() });
      // The deployer minted each token's supply and keeps what it has not handed out, like a
      // treasury; wrapped ether it holds is ether like anyone's.
      if (token.kind !== 'weth') entry.non_circulating_holders.push({ chain_id: chain.id, address: chain.deployer.toLowerCase() });
      tokens.set(fungibleId, entry);
    }
    const spamContracts = [
      ...(tokensSection?.tokens ?? []).filter((token) => token.kind === 'spam').map((token) => token.address),
      ...(nfts?.collections ?? []).filter((collection) => collection.kind === 'spam').map((collection) => collection.address),
    ];
    if (spamContracts.length > 0) spam[chain.id] = lower(spamContracts);
  }
  return {
    dapps: [...registryDapps.values()],
    tokens: [...tokens.values()],
    spam_tokens: spam,
    burn_addresses: [],
    high_volume_addresses: [],
    protocols,
    pricing,
  };
}

/** Where the start and test commands leave the registry of the loaded world, next to its manifest. */
export const defaultRegistryPath = new URL('../../../.data/devnet/registry.json', import.meta.url).pathname;

/** The EVM chains' registry with the Solana worlds' mints merged in (Solana USDC joins the `usdc` fungible). */
export async function writeDevnetRegistry(manifest: Manifest, path: string = defaultRegistryPath): Promise<void> {
  const registry = withSolanaRegistryEntries(devnetRegistry(manifest), solanaRegistryEntries(manifest.solana ?? []));
  await writeFile(path, `${JSON.stringify(registry, null, 2)}\n`);
}
