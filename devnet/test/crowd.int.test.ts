import { erc20Abi, type Address } from 'viem';
import type { MinedBlock } from '../src/chain/index.js';
import { buildCrowd, planCrowd, type CrowdWallet } from '../src/crowd/index.js';
import { tokensModule, type TokensManifest } from '../src/protocols/tokens/index.js';
import { uniswapModule, type UniswapManifest } from '../src/protocols/uniswap/index.js';
import { readUniswapV3Positions } from '../src/truth/uniswap.js';
import { devnetAccounts, setupDevnet, type Devnet } from './setup-devnet.js';

// The crowd bench:mix measures many wallets on: every planned transfer and position lands on chain
// as ordinary transactions, read back here from the chain itself.

const accounts = devnetAccounts('crowd-test', 0);
const count = 120;

describe('a crowd of wallets', () => {
  let devnet: Devnet;
  let tokens: TokensManifest;
  let uniswap: UniswapManifest;
  let crowd: CrowdWallet[];
  let blocks: MinedBlock[];

  beforeAll(async () => {
    devnet = await setupDevnet({ accounts, deployerEth: '100000000', modules: [tokensModule, uniswapModule] });
    tokens = devnet.manifest(tokensModule);
    uniswap = devnet.manifest(uniswapModule);
    crowd = planCrowd({ seed: 'crowd-test', count, tokens, uniswap });
    blocks = await buildCrowd({
      session: devnet.session,
      artifacts: devnet.artifacts,
      deployer: accounts.deployer,
      tokens,
      uniswap,
      wallets: crowd,
      nextTimestamp: (latest) => latest + 12,
      batchSize: 25,
      batchesPerBlock: 2,
    });
  }, 180_000);

  afterAll(async () => {
    await devnet?.stop();
  });

  test('the same seed plans the same crowd; its wallets are distinct and some hold positions or send', () => {
    expect(planCrowd({ seed: 'crowd-test', count, tokens, uniswap })).toEqual(crowd);
    expect(planCrowd({ seed: 'other', count, tokens, uniswap })[0]!.address).not.toBe(crowd[0]!.address);
    expect(new Set(crowd.map((wallet) => wallet.address)).size).toBe(count);
    expect(crowd.filter((wallet) => wallet.position).length).toBeGreaterThan(3);
    expect(crowd.filter((wallet) => wallet.send).length).toBeGreaterThan(15);
  });

  test('funded in a few blocks after deploying its funder: the approvals, 25 wallets per transaction two to a block, then the sends', () => {
    expect(blocks).toHaveLength(1 + Math.ceil(count / 50) + 1);
    expect(blocks.at(-1)!.receipts.size).toBe(crowd.filter((wallet) => wallet.send).length);
  });

  test('every wallet holds on chain the ether and tokens the plan sent and received, less its gas', async () => {
    const client = devnet.session.client;
    const gasPaid = new Map<string, bigint>();
    for (const receipt of blocks.at(-1)!.receipts.values()) gasPaid.set(receipt.from.toLowerCase(), receipt.gasUsed * receipt.effectiveGasPrice);
    const feeBps = new Map(tokens.tokens.map((token) => [token.address, BigInt(token.feeBps ?? 0)]));
    const expected = new Map<string, bigint>();
    const key = (wallet: Address, token: Address) => `${wallet}/${token}`;
    const add = (wallet: Address, token: Address, amount: bigint) => expected.set(key(wallet, token), (expected.get(key(wallet, token)) ?? 0n) + amount);
    for (const wallet of crowd) for (const { token, amount } of wallet.tokens) add(wallet.address, token, amount);
    for (const { address, send } of crowd) {
      if (!send) continue;
      add(address, send.token, -send.amount);
      add(send.to, send.token, send.amount - (send.amount * feeBps.get(send.token)!) / 10_000n);
    }
    const pairs = [...expected.keys()].map((entry) => entry.split('/') as [Address, Address]);
    const balances = await Promise.all(
      pairs.map(([wallet, token]) => client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [wallet] })),
    );
    expect(Object.fromEntries(pairs.map((pair, index) => [pair.join('/'), balances[index]]))).toEqual(Object.fromEntries(expected));
    for (const wallet of crowd) {
      expect(await client.getBalance({ address: wallet.address })).toBe(wallet.eth - (gasPaid.get(wallet.address.toLowerCase()) ?? 0n));
    }
  });

  test('each wallet with a planned position owns one in range in its pool, holding both tokens', async () => {
    const head = await devnet.session.client.getBlockNumber();
    for (const wallet of crowd) {
      const positions = await readUniswapV3Positions(devnet.session.client, uniswap, wallet.address, head);
      if (!wallet.position) {
        expect(positions).toEqual([]);
        continue;
      }
      expect(positions).toHaveLength(1);
      const [position] = positions;
      expect(position!.pool).toBe(wallet.position.pool.address);
      expect(position!.inRange).toBe(true);
      expect(position!.amount0).toBeGreaterThan(0n);
      expect(position!.amount1).toBeGreaterThan(0n);
    }
  });
});
