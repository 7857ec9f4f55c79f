import { setupChangeVersions } from '@wallet-api/core/testing';
import { createPublicClient, encodeFunctionData, http, parseAbi, type Address, type PublicClient } from 'viem';
import { readManifest } from '../../../devnet/src/manifest/index.js';
import { tokenBySymbol, type TokensManifest } from '../../../devnet/src/protocols/tokens/index.js';
import { startOwnChain, type OwnChain } from '../../indexer/test/setup-indexing.js';
import { createHeadReads, type HeadReads } from '../src/chains/head-reads.js';
import { createTokenSupply, type TokenSupply } from '../src/fungibles/token-supply.js';
import { randomAddress } from '../../indexer/test/wallet-history-fixtures.js';

const worldState = new URL('../../../.data/devnet/world/ethereum.state.json', import.meta.url).pathname;
const erc20 = parseAbi([
  'function totalSupply() view returns (uint256)',
  'function balanceOf(address) view returns (uint256)',
  'function transfer(address to, uint256 amount) returns (bool)',
]);

// Reads at the head (here the supplies behind market data) from a chain of the test's own: once per
// price move and ahead of its announcement, never older than the age limit, again after a rollback.
describe('reads at the head', () => {
  const changes = setupChangeVersions();
  let chain: OwnChain;
  let client: PublicClient;
  let gov: Address;
  let deployer: Address;
  let clock = Date.now();
  let chainReads = 0;
  let supply: TokenSupply;
  let heads: HeadReads;

  beforeAll(async () => {
    const world = (await readManifest()).chains.find((candidate) => candidate.id === 'ethereum')!;
    chain = await startOwnChain({ chainId: world.chainId, loadState: worldState });
    client = createPublicClient({ transport: http(chain.rpcUrl) });
    gov = tokenBySymbol(world.protocols.tokens as TokensManifest, 'GOV').address as Address;
    deployer = world.deployer as Address;
    const chainSupply = createTokenSupply(new Map([['ethereum', client]]));
    supply = {
      totalSupply: (chainId, token) => ((chainReads += 1), chainSupply.totalSupply(chainId, token)),
      balanceOf: (chainId, token, holder) => ((chainReads += 1), chainSupply.balanceOf(chainId, token, holder)),
    };
    heads = createHeadReads({ versions: changes.versions, now: () => clock });
  }, 120_000);

  afterAll(async () => {
    await chain?.stop();
    changes.close();
  });

  const onChain = async () =>
    Promise.all([
      client.readContract({ address: gov, abi: erc20, functionName: 'totalSupply' }),
      client.readContract({ address: gov, abi: erc20, functionName: 'balanceOf', args: [deployer] }),
    ]);
  // Anvil refuses a block timestamp behind the wall clock once it runs.
  const nextTime = async () => Math.max((await chain.session.latestTimestamp()) + 1, Math.floor(Date.now() / 1000) + 1);
  const read = async () => {
    const scope = await heads.scope();
    return Promise.all([
      scope.read('supply', () => supply.totalSupply('ethereum', gov)),
      scope.read('held', () => supply.balanceOf('ethereum', gov, deployer)),
    ]);
  };

  test('a supply is read from the chain once, and again ahead of the next price move, which calls then find read', async () => {
    const before = chainReads;
    expect(await read()).toEqual(await onChain());
    expect(chainReads - before).toBe(2);
    expect(await read()).toEqual(await onChain());
    expect(chainReads - before).toBe(2);

    // The holder's balance changes; a call before the next price move still answers as of the last one.
    const [, held] = await onChain();
    await chain.session.sendAndMine(
      { from: deployer, to: gov, data: encodeFunctionData({ abi: erc20, functionName: 'transfer', args: [randomAddress() as Address, held / 2n] }) },
      await nextTime(),
    );
    expect((await read())[1]).toBe(held);

    await changes.versions.pricesChanged((tokens) => heads.prepare(tokens));
    expect(chainReads - before).toBe(4);
    expect(await read()).toEqual(await onChain());
    expect((await read())[1]).toBe(held - held / 2n);
    expect(chainReads - before).toBe(4);
  });

  test('a supply is read again once older than the age limit, whatever the tokens', async () => {
    await read();
    const before = chainReads;
    clock += 14_000;
    await read();
    expect(chainReads - before).toBe(0);
    clock += 1_000;
    expect(await read()).toEqual(await onChain());
    expect(chainReads - before).toBe(2);
  });

  test('a rollback has every supply read again; supplies no call used lately are not read ahead of a price move', async () => {
    await read();
    await changes.versions.everythingChanged();
    const before = chainReads;
    expect(await read()).toEqual(await onChain());
    expect(chainReads - before).toBe(2);

    clock += 61_000;
    await changes.versions.pricesChanged((tokens) => heads.prepare(tokens));
    expect(chainReads - before).toBe(2);
  });

  test('a failed read is not kept: the next call reads again', async () => {
    const missing = async () => (await heads.scope()).read('missing', () => supply.totalSupply('ethereum', randomAddress()));
    await expect(missing()).rejects.toThrow(/did not answer/);
    const before = chainReads;
    await expect(missing()).rejects.toThrow(/did not answer/);
    expect(chainReads - before).toBe(1);
  });
});
