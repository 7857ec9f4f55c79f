// Needs PostgreSQL (wallet_api_test, migrated) and the test world loaded on the local anvil chains
// (scripts/test.sh); reads the chains and never changes their state.
import { readFile } from 'node:fs/promises';
import { status } from '@grpc/grpc-js';
import { createPublicClient, http, parseAbi, type Address } from 'viem';
import { createPrisma } from '@wallet-api/core/db';
import { createGrpcClient, startGrpcServer, unary, type GrpcServer } from '@wallet-api/core/grpc';
import { Network } from '@wallet-api/core/proto/common';
import { AddressKind, ReferenceDataClient, TokenInterface, type TokenInfo } from '@wallet-api/core/proto/reference_data';
import { testConfig, testLogger } from '@wallet-api/core/testing';
import { readManifest, type ChainWorld, type Manifest } from '@wallet-api/devnet/manifest';
import { devnetRegistry } from '@wallet-api/devnet/registry';
import type { NftsManifest } from '../../../devnet/src/protocols/nfts/manifest.js';
import type { TokensManifest } from '../../../devnet/src/protocols/tokens/manifest.js';
import type { UniswapManifest } from '../../../devnet/src/protocols/uniswap/manifest.js';
import { loadChainsConfig, type ChainConfig } from '../src/chains/chain-config.js';
import { createChainRegistry } from '../src/chains/chain-registry.js';
import { createReferenceDataDomain } from '../src/domain.js';
import { referenceDataService } from '../src/grpc/reference-data-service.js';
import { mergeRegistries, parseRegistryConfig, type RegistryConfig } from '../src/registry/registry-config.js';

const chainsFile = new URL('../config/chains.json', import.meta.url).pathname;
const shippedRegistry = new URL('../config/registry.json', import.meta.url);
const erc20 = parseAbi(['function name() view returns (string)', 'function symbol() view returns (string)', 'function decimals() view returns (uint8)']);

const context = (network = Network.NETWORK_MAINNET) => ({ organizationId: '', roles: [], addons: [], network });
const tokensOf = (chain: ChainWorld) => chain.protocols.tokens as TokensManifest;
const nftsOf = (chain: ChainWorld) => chain.protocols.nfts as NftsManifest;
const uniswapOf = (chain: ChainWorld) => chain.protocols.uniswap as UniswapManifest;

describe('reference-data tokens, dapps and addresses against the test world', () => {
  const prisma = createPrisma(testConfig().DATABASE_URL);
  let manifest: Manifest;
  let chains: ChainConfig[];
  let registry: RegistryConfig;
  let grpc: GrpcServer;
  let client: InstanceType<typeof ReferenceDataClient>;
  const ethereum = () => manifest.chains.find((chain) => chain.id === 'ethereum')!;

  async function serve(chainConfigs: ChainConfig[]): Promise<{ grpc: GrpcServer; client: InstanceType<typeof ReferenceDataClient> }> {
    const domain = createReferenceDataDomain({ chains: chainConfigs, registry, prisma, logger: testLogger });
    const server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      services: [referenceDataService(createChainRegistry(chainConfigs), domain)],
      logger: testLogger,
    });
    return { grpc: server, client: createGrpcClient(ReferenceDataClient, `127.0.0.1:${server.port}`) };
  }

  const getTokens = (target: InstanceType<typeof ReferenceDataClient>, tokens: { chainId: string; address: string }[]) =>
    unary(target, target.getTokens, { context: context(), tokens }).then((response) => response.tokens);
  const classify = (address: string, network = Network.NETWORK_MAINNET) => unary(client, client.classifyAddress, { context: context(network), address });

  beforeAll(async () => {
    manifest = await readManifest();
    chains = await loadChainsConfig(chainsFile, {});
    registry = mergeRegistries([
      parseRegistryConfig(JSON.parse(await readFile(shippedRegistry, 'utf8')), 'shipped'),
      parseRegistryConfig(devnetRegistry(manifest), 'devnet'),
    ]);
    ({ grpc, client } = await serve(chains));
  });

  afterAll(async () => {
    client.close();
    await grpc.shutdown(1_000);
    await prisma.$disconnect();
  });

  test("token metadata equals what each chain's contracts answer, with registry flags and one fungible id per asset", async () => {
    for (const chain of manifest.chains) {
      const rpc = createPublicClient({ transport: http(chain.rpcUrl) });
      const tokens = tokensOf(chain).tokens;
      const served = await getTokens(
        client,
        tokens.map((token) => ({ chainId: chain.id, address: token.address })),
      );
      expect(served.map((token) => token.address)).toEqual(tokens.map((token) => token.address.toLowerCase()));
      for (const [index, token] of tokens.entries()) {
        const address = token.address as Address;
        const [name, symbol, decimals] = await Promise.all(
          (['name', 'symbol', 'decimals'] as const).map((functionName) => rpc.readContract({ address, abi: erc20, functionName })),
        );
        const spam = token.kind === 'spam';
        expect(served[index]).toEqual({
          chainId: chain.id,
          address: address.toLowerCase(),
          interface: TokenInterface.TOKEN_INTERFACE_ERC20,
          name,
          symbol,
          decimals,
          fungibleId: spam ? expect.stringMatching(/^[0-9a-f]{40}$/) : token.symbol.toLowerCase(),
          iconUrl: '',
          verified: !spam,
          isSpam: spam,
        });
      }
    }
  });

  test('the native asset comes from the chains config; NFT collections, a spam collection and a non-token contract', async () => {
    const chain = ethereum();
    const collections = nftsOf(chain).collections;
    const byKind = (kind: string) => collections.find((collection) => collection.kind === kind)!.address;
    const served = await getTokens(client, [
      { chainId: 'ethereum', address: '' },
      { chainId: 'ethereum', address: byKind('hosted') },
      { chainId: 'ethereum', address: byKind('editions') },
      { chainId: 'ethereum', address: byKind('spam') },
      { chainId: 'ethereum', address: uniswapOf(chain).v3.pools[0]!.address },
    ]);
    expect(served[0]).toMatchObject({
      interface: TokenInterface.TOKEN_INTERFACE_NATIVE,
      name: 'Ether',
      symbol: 'ETH',
      decimals: 18,
      fungibleId: 'eth',
      verified: true,
      isSpam: false,
    });
    expect(served[1]).toMatchObject({ interface: TokenInterface.TOKEN_INTERFACE_ERC721, name: 'Harbor Birds', fungibleId: '', isSpam: false });
    expect(served[2]).toMatchObject({ interface: TokenInterface.TOKEN_INTERFACE_ERC1155, fungibleId: '', isSpam: false });
    expect(served[3]).toMatchObject({ interface: TokenInterface.TOKEN_INTERFACE_ERC721, isSpam: true });
    expect(served[4]).toMatchObject({ interface: TokenInterface.TOKEN_INTERFACE_UNKNOWN, name: '', symbol: '' });
  });

  test('read tokens are stored once, and a new instance serves them from PostgreSQL without its chain', async () => {
    const token = tokensOf(ethereum()).tokens.find((entry) => entry.symbol === 'FROG')!;
    const address = token.address.toLowerCase();
    await prisma.tokenMetadata.deleteMany({ where: { chainId: 'ethereum', address } });

    // Two instances with their own caches ask for the same new token at once.
    const second = await serve(chains);
    try {
      const [first, other] = await Promise.all([
        getTokens(client, [{ chainId: 'ethereum', address }]),
        getTokens(second.client, [{ chainId: 'ethereum', address }]),
      ]);
      expect(first).toEqual(other);
    } finally {
      second.client.close();
      await second.grpc.shutdown(1_000);
    }
    expect(await prisma.tokenMetadata.findMany({ where: { chainId: 'ethereum', address } })).toEqual([
      expect.objectContaining({ interface: 'erc20', name: token.name, symbol: 'FROG', symbolKey: 'FROG', decimals: 18 }),
    ]);

    const unreachable = chains.map((chain) => ({ ...chain, rpc: { ...chain.rpc, url: 'http://127.0.0.1:9' } }));
    const offline = await serve(unreachable);
    try {
      expect(await getTokens(offline.client, [{ chainId: 'ethereum', address }])).toEqual([
        expect.objectContaining({ symbol: 'FROG', verified: true, fungibleId: 'frog' }),
      ]);
      const unknown = tokensOf(ethereum()).tokens.find((entry) => entry.symbol === 'TAX')!.address;
      await prisma.tokenMetadata.deleteMany({ where: { chainId: 'ethereum', address: unknown.toLowerCase() } });
      await expect(getTokens(offline.client, [{ chainId: 'ethereum', address: unknown }])).rejects.toMatchObject({ code: status.UNAVAILABLE });
    } finally {
      offline.client.close();
      await offline.grpc.shutdown(1_000);
    }
  });

  test('refuses unknown chains and malformed addresses', async () => {
    await expect(getTokens(client, [{ chainId: 'polygon', address: '' }])).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
      details: 'chain polygon is not supported',
    });
    await expect(getTokens(client, [{ chainId: 'ethereum', address: '0x1234' }])).rejects.toMatchObject({ code: status.INVALID_ARGUMENT });
    await expect(classify('not-an-address')).rejects.toMatchObject({ code: status.INVALID_ARGUMENT });
  });

  test('resolves protocol contracts to their dapps, ignoring case, and leaves others out', async () => {
    const chain = ethereum();
    const uniswap = uniswapOf(chain);
    const pair = uniswap.v2.pairs[0]!.address;
    const response = await unary(client, client.resolveContracts, {
      context: context(),
      chainId: 'ethereum',
      addresses: [pair.toUpperCase().replace('0X', '0x'), uniswap.v3.pools[0]!.address, nftsOf(chain).market, chain.wallets[0]!.address],
    });
    expect(response.contracts.map((contract) => [contract.address, contract.dapp?.id])).toEqual([
      [pair.toLowerCase(), 'uniswap-v2'],
      [uniswap.v3.pools[0]!.address.toLowerCase(), 'uniswap-v3'],
      [nftsOf(chain).market.toLowerCase(), 'devnet-nft-market'],
    ]);
    expect(response.contracts[0]!.dapp).toMatchObject({ name: 'Uniswap V2', url: 'https://app.uniswap.org' });
  });

  test('classifies every wallet of the world as tracked, by its kind', async () => {
    for (const chain of manifest.chains) {
      const network = chain.id === 'sepolia' ? Network.NETWORK_TESTNET : Network.NETWORK_MAINNET;
      const rpc = createPublicClient({ transport: http(chain.rpcUrl) });
      for (const wallet of chain.wallets) {
        const deployed = (await rpc.getCode({ address: wallet.address as Address })) !== undefined;
        // A smart account exists on chain only after its first user operation; until then its address is key-less and has no code.
        const expected = {
          eoa: AddressKind.ADDRESS_KIND_EOA,
          safe: AddressKind.ADDRESS_KIND_SAFE,
          'smart-account': deployed ? AddressKind.ADDRESS_KIND_SMART_ACCOUNT : AddressKind.ADDRESS_KIND_EOA,
        }[wallet.kind];
        expect([wallet.address, await classify(wallet.address, network)]).toEqual([
          wallet.address,
          { address: wallet.address.toLowerCase(), kind: expected, tracked: true, reason: '' },
        ]);
      }
    }
    const kinds = new Set(manifest.chains.flatMap((chain) => chain.wallets.map((wallet) => wallet.kind)));
    expect(kinds).toEqual(new Set(['eoa', 'safe', 'smart-account']));
  });

  test('a Uniswap pool is an untracked contract; burn and high-volume addresses are untracked', async () => {
    const pool = uniswapOf(ethereum()).v3.pools[0]!.address.toLowerCase();
    expect(await classify(pool)).toEqual({
      address: pool,
      kind: AddressKind.ADDRESS_KIND_CONTRACT,
      tracked: false,
      reason: `address ${pool} is a contract that is not a smart-contract wallet; its transactions are not tracked`,
    });
    // The testnet set (sepolia) has the same contract at the same address (same deployer and nonces).
    expect(await classify(pool, Network.NETWORK_TESTNET)).toMatchObject({ kind: AddressKind.ADDRESS_KIND_CONTRACT });
    for (const burn of ['0x0000000000000000000000000000000000000000', '0x000000000000000000000000000000000000dEaD']) {
      expect(await classify(burn)).toEqual({
        address: burn.toLowerCase(),
        kind: AddressKind.ADDRESS_KIND_BURN,
        tracked: false,
        reason: `address ${burn.toLowerCase()} is a burn address; its transactions are not tracked`,
      });
    }
    expect(await classify('0x28C6c06298d514Db089934071355E5743bf21d60')).toMatchObject({
      kind: AddressKind.ADDRESS_KIND_HIGH_VOLUME,
      tracked: false,
      reason: expect.stringContaining('Binance hot wallet'),
    });
  });

  test('finds tokens by symbol on the requested network, ignoring case', async () => {
    const spamUsdc = tokensOf(ethereum())
      .tokens.find((token) => token.symbol === 'USDC' && token.kind === 'spam')!
      .address.toLowerCase();
    await getTokens(client, [{ chainId: 'ethereum', address: spamUsdc }]);
    const mainnet = (await unary(client, client.findTokensBySymbol, { context: context(), symbol: 'usdc' })).tokens;
    const summary = (tokens: TokenInfo[]) => tokens.map((token) => [token.chainId, token.address, token.fungibleId, token.isSpam]);
    const real = (chainId: string) => [
      chainId,
      tokensOf(ethereum())
        .tokens.find((token) => token.symbol === 'USDC' && token.kind !== 'spam')!
        .address.toLowerCase(),
      'usdc',
      false,
    ];
    expect(summary(mainnet)).toEqual(expect.arrayContaining([real('ethereum'), real('base'), ['ethereum', spamUsdc, expect.any(String), true]]));
    // Solana's USDC is found too once stored (another test may have read it): every one is on a mainnet.
    expect(mainnet.every((token) => token.symbol === 'USDC' && ['ethereum', 'base', 'solana'].includes(token.chainId))).toBe(true);
    const testnet = (await unary(client, client.findTokensBySymbol, { context: context(Network.NETWORK_TESTNET), symbol: 'UsDc' })).tokens;
    expect(summary(testnet)).toEqual(expect.arrayContaining([real('sepolia')]));
    expect(testnet.every((token) => ['sepolia', 'solana-devnet'].includes(token.chainId))).toBe(true);
    expect(
      (await unary(client, client.findTokensBySymbol, { context: context(), symbol: 'eth' })).tokens.map((token) => [token.chainId, token.interface]),
    ).toEqual([
      ['ethereum', TokenInterface.TOKEN_INTERFACE_NATIVE],
      ['base', TokenInterface.TOKEN_INTERFACE_NATIVE],
    ]);
  });

  test("lists each chain's protocol contracts, which the chain confirms are what they claim to be", async () => {
    const protocolAbi = parseAbi([
      'function factory() view returns (address)',
      'function getPair(address, address) view returns (address)',
      'function token0() view returns (address)',
      'function token1() view returns (address)',
      'function asset() view returns (address)',
    ]);
    for (const chain of manifest.chains) {
      const rpc = createPublicClient({ transport: http(chain.rpcUrl) });
      const read = (address: string, functionName: 'factory' | 'token0' | 'token1' | 'asset') =>
        rpc.readContract({ address: address as Address, abi: protocolAbi, functionName }).then((value) => value.toLowerCase());
      const listed = await unary(client, client.listProtocols, { context: context(), chainId: chain.id });
      const defi = chain.protocols.defi as { vaults: { address: string }[]; staking: { address: string }; lending: { address: string } };
      expect(listed.chainId).toBe(chain.id);
      expect(listed.uniswapV2).toHaveLength(1);
      const [v2] = listed.uniswapV2;
      expect(v2!.pairs).toEqual(uniswapOf(chain).v2.pairs.map((pair) => pair.address.toLowerCase()));
      for (const pair of v2!.pairs) {
        expect(await read(pair, 'factory')).toBe(v2!.factory);
        const [token0, token1] = await Promise.all([read(pair, 'token0'), read(pair, 'token1')]);
        const registered = await rpc.readContract({
          address: v2!.factory as Address,
          abi: protocolAbi,
          functionName: 'getPair',
          args: [token0 as Address, token1 as Address],
        });
        expect(registered.toLowerCase()).toBe(pair);
      }
      expect(listed.uniswapV3).toHaveLength(1);
      expect(await read(listed.uniswapV3[0]!.positionManager, 'factory')).toBe(listed.uniswapV3[0]!.factory);
      for (const pool of uniswapOf(chain).v3.pools) expect(await read(pool.address, 'factory')).toBe(listed.uniswapV3[0]!.factory);
      expect(listed.vaults.map((vault) => vault.address)).toEqual(defi.vaults.map((vault) => vault.address.toLowerCase()));
      for (const vault of listed.vaults) expect(await read(vault.address, 'asset')).toMatch(/^0x[0-9a-f]{40}$/);
      expect(listed.staking).toEqual([{ address: defi.staking.address.toLowerCase() }]);
      expect(listed.lending).toEqual([{ address: defi.lending.address.toLowerCase() }]);
    }
    // Protocol positions are EVM-only (spec 4.3): a Solana chain lists none; an unknown chain is refused.
    expect(await unary(client, client.listProtocols, { context: context(), chainId: 'solana' })).toMatchObject({
      uniswapV2: [],
      uniswapV3: [],
      vaults: [],
      staking: [],
      lending: [],
    });
    await expect(unary(client, client.listProtocols, { context: context(), chainId: 'no-such-chain' })).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
    });
  });
});
