// Swap quotes over real parts: reference-data's Swap and ReferenceData gRPC services on the test
// world's chains with the world's registry, `ethereum` pointed at an anvil of the test's own forked
// from the shared chain at its head: the swap tests execute transactions, and the shared chains
// are only read (other suites index them to their head and expect exactly the world's
// transactions). The test's wallet is a fresh address on the fork, funded with anvil_setBalance
// and impersonated.
// The truth helpers read the chain themselves, route by route, without the service's code.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createPrisma } from '@wallet-api/core/db';
import { startGrpcServer, type GrpcServer } from '@wallet-api/core/grpc';
import { setupClickHouse, setupChangeVersions, testConfig, testLogger } from '@wallet-api/core/testing';
import {
  createWalletClient,
  custom,
  encodeFunctionData,
  encodePacked,
  getAddress,
  parseAbi,
  zeroAddress,
  type Address,
  type Hex,
  type PublicClient,
} from 'viem';
import { readManifest } from '../../../devnet/src/manifest/index.js';
import { devnetRegistry } from '../../../devnet/src/registry/index.js';
import type { TokensManifest } from '../../../devnet/src/protocols/tokens/manifest.js';
import { loadChainsConfig, rpcOverrideVariable } from '../src/chains/chain-config.js';
import { createChainRegistry } from '../src/chains/chain-registry.js';
import { createReferenceDataDomain } from '../src/domain.js';
import { referenceDataService } from '../src/grpc/reference-data-service.js';
import { swapService } from '../src/grpc/swap-service.js';
import { loadFxTable } from '../src/prices/currencies.js';
import { mergeRegistries, parseRegistryConfig, type RegistryConfig } from '../src/registry/registry-config.js';
import { createSwapQuoter, swapClients } from '../src/swap/swap-quoter.js';
import { startForkAnvil } from './own-anvil.js';

const chainsFile = new URL('../config/chains.json', import.meta.url).pathname;
const shippedRegistry = new URL('../config/registry.json', import.meta.url).pathname;
const fxFile = new URL('../config/fx-rates.json', import.meta.url).pathname;
/** The shared test world's ethereum anvil: only forked from, never written. */
const sharedEthereumRpcUrl = 'http://127.0.0.1:18545';

export interface SwapServer {
  address: string;
  registry: RegistryConfig;
  /** The test's own fork of the shared ethereum chain, which the service reads: every read and write of the test goes here. */
  client: PublicClient;
  /** The test world's token on ethereum with this symbol (the shipped registry lists mainnet's under the same fungible). */
  worldToken(symbol: string): Address;
  stop(): Promise<void>;
}

/** reference-data's Swap (and ReferenceData, for GetFungibles) over the world's registry as a fresh `devnet world` writes it. */
export async function startSwapServer(): Promise<SwapServer> {
  const manifest = await readManifest();
  const registry = mergeRegistries([
    parseRegistryConfig(JSON.parse(await readFile(shippedRegistry, 'utf8')), 'shipped'),
    parseRegistryConfig(devnetRegistry(manifest), 'test world'),
  ]);
  const fork = await startForkAnvil(sharedEthereumRpcUrl);
  const chains = await loadChainsConfig(chainsFile, { [rpcOverrideVariable('ethereum')]: fork.rpcUrl });
  const worldTokens = (manifest.chains.find((chain) => chain.id === 'ethereum')!.protocols.tokens as TokensManifest).tokens;
  const prisma = createPrisma(testConfig().DATABASE_URL);
  const clickhouse = setupClickHouse();
  const changes = setupChangeVersions();
  const domain = createReferenceDataDomain({
    chains,
    registry,
    prisma,
    logger: testLogger,
    prices: { clickhouse, fx: await loadFxTable(fxFile), versions: changes.versions },
  });
  const quoter = createSwapQuoter({
    chains,
    registry: domain.registry,
    tokens: registry.tokens,
    clients: swapClients(chains),
    ...(domain.prices ? { prices: domain.prices } : {}),
  });
  const server: GrpcServer = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    services: [referenceDataService(createChainRegistry(chains), domain), swapService(quoter)],
    logger: testLogger,
  });
  return {
    address: `127.0.0.1:${server.port}`,
    registry,
    client: fork.client,
    worldToken: (symbol) => getAddress(worldTokens.find((token) => token.symbol === symbol && token.kind !== 'spam')!.address),
    async stop() {
      await server.shutdown(1_000);
      changes.close();
      await clickhouse.close();
      await prisma.$disconnect();
      await fork.stop();
    },
  };
}

const erc20 = parseAbi(['function balanceOf(address owner) view returns (uint256)', 'function approve(address spender, uint256 amount) returns (bool)']);
const factories = parseAbi([
  'function getPair(address tokenA, address tokenB) view returns (address pair)',
  'function getPool(address tokenA, address tokenB, uint24 fee) view returns (address pool)',
]);
const v2Router = parseAbi(['function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)']);
const quoterV2 = parseAbi([
  'function quoteExactInput(bytes path, uint256 amountIn) returns (uint256 amountOut, uint160[] sqrtPriceX96AfterList, uint32[] initializedTicksCrossedList, uint256 gasEstimate)',
]);

/** A fresh address with `ether` ETH, impersonated: the test's own wallet. */
export async function fundedWallet(client: PublicClient, ether: bigint): Promise<Address> {
  const address = getAddress(`0x${randomBytes(20).toString('hex')}`);
  await client.request({ method: 'anvil_setBalance' as never, params: [address, `0x${(ether * 10n ** 18n).toString(16)}`] as never });
  await client.request({ method: 'anvil_impersonateAccount' as never, params: [address] as never });
  return address;
}

/** Sends a transaction from an impersonated wallet through `client`'s chain and waits for its receipt; throws when it reverts. */
export async function send(client: PublicClient, tx: { from: Address; to: Address; data: Hex; value?: bigint; gas?: bigint }): Promise<void> {
  const wallet = createWalletClient({ transport: custom(client) });
  const hash = await wallet.sendTransaction({
    account: tx.from,
    to: tx.to,
    data: tx.data,
    value: tx.value ?? 0n,
    ...(tx.gas ? { gas: tx.gas } : {}),
    chain: null,
  });
  const receipt = await client.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`);
}

export async function approve(client: PublicClient, from: Address, token: Address, spender: Address, amount: bigint): Promise<void> {
  await send(client, { from, to: token, data: encodeFunctionData({ abi: erc20, functionName: 'approve', args: [spender, amount] }) });
}

/** `owner`'s balance of `token` ('' for ETH). */
export async function balanceOf(client: PublicClient, token: Address | '', owner: Address, blockNumber?: bigint): Promise<bigint> {
  return token === ''
    ? client.getBalance({ address: owner, ...(blockNumber === undefined ? {} : { blockNumber }) })
    : client.readContract({ address: token, abi: erc20, functionName: 'balanceOf', args: [owner], ...(blockNumber === undefined ? {} : { blockNumber }) });
}

/**
 * Every direct and one-hop route (through `hubs`) of the registry's Uniswap deployments on
 * `chainId`, quoted by the chain at `blockNumber`: route (lowercase pool addresses joined by `-`)
 * to output amount. Routes the chain cannot fill are left out.
 */
export async function quotesOnChain(options: {
  client: PublicClient;
  registry: RegistryConfig;
  chainId: string;
  tokenIn: Address;
  tokenOut: Address;
  amountIn: bigint;
  blockNumber: bigint;
}): Promise<Map<string, bigint>> {
  const { client, registry, chainId, tokenIn, tokenOut, amountIn, blockNumber } = options;
  const pricing = registry.pricing[chainId]!;
  const hubs = [pricing.wrapped_native, ...pricing.usd_stablecoins].map((hub) => getAddress(hub)).filter((hub) => hub !== tokenIn && hub !== tokenOut);
  const paths: Address[][] = [[tokenIn, tokenOut], ...hubs.map((hub) => [tokenIn, hub, tokenOut])];
  const protocols = registry.protocols[chainId]!;
  const found = new Map<string, bigint>();
  const at = { blockNumber };
  for (const v2 of protocols.uniswap_v2) {
    for (const path of paths) {
      const pairs = await Promise.all(
        path
          .slice(1)
          .map((token, index) =>
            client.readContract({ address: v2.factory as Address, abi: factories, functionName: 'getPair', args: [path[index]!, token], ...at }),
          ),
      );
      if (pairs.some((pair) => pair === zeroAddress)) continue;
      try {
        const amounts = await client.readContract({
          address: v2.router as Address,
          abi: v2Router,
          functionName: 'getAmountsOut',
          args: [amountIn, path],
          ...at,
        });
        found.set(pairs.map((pair) => pair.toLowerCase()).join('-'), amounts.at(-1)!);
      } catch {
        // A pair without the reserves to fill it: no route.
      }
    }
  }
  for (const v3 of protocols.uniswap_v3) {
    for (const path of paths) {
      let combos: number[][] = [[]];
      for (let hop = 1; hop < path.length; hop++) combos = combos.flatMap((fees) => [100, 500, 3000, 10000].map((fee) => [...fees, fee]));
      for (const fees of combos) {
        const pools = await Promise.all(
          fees.map((fee, index) =>
            client.readContract({
              address: v3.factory as Address,
              abi: factories,
              functionName: 'getPool',
              args: [path[index]!, path[index + 1]!, fee],
              ...at,
            }),
          ),
        );
        if (pools.some((pool) => pool === zeroAddress)) continue;
        const types = path.flatMap((_, index) => (index < fees.length ? (['address', 'uint24'] as const) : (['address'] as const)));
        const values = path.flatMap((token, index) => (index < fees.length ? [token, fees[index]!] : [token]));
        try {
          const { result } = await client.simulateContract({
            address: v3.quoter as Address,
            abi: quoterV2,
            functionName: 'quoteExactInput',
            args: [encodePacked(types, values), amountIn],
            ...at,
          });
          if (result[0] > 0n) found.set(pools.map((pool) => pool.toLowerCase()).join('-'), result[0]);
        } catch {
          // Not enough liquidity in range: no route.
        }
      }
    }
  }
  return found;
}
