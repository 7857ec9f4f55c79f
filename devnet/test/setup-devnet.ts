/**
 * Shared setup of the protocol modules' integration tests: a fresh anvil under the data folder,
 * a chain session with a funded deployer, compiled contracts, modules deployed in order, a clock
 * for block timestamps, wallet funding, and rounds of wallet actions mined block by block.
 * Composable: `setupDevnet` does what every test needs, and its methods the steps some need.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { encodeFunctionData, erc20Abi, getAddress, keccak256, parseEther, parseUnits, slice, stringToHex, type Address, type Hash } from 'viem';
import { createChainSession, startAnvil, type AnvilInstance, type ChainSession, type DevnetClient, type MinedBlock } from '../src/chain/index.js';
import { compileContracts, type Artifacts } from '../src/compile/index.js';
import { tokenBySymbol, type TokensManifest } from '../src/protocols/tokens/index.js';
import { createRng, type ActionContext, type ActionResult, type ActionSpec, type ProtocolModule, type Rng } from '../src/world/index.js';

const dataDir = new URL('../../.data/devnet/', import.meta.url).pathname;
const contractsDir = new URL('../contracts/', import.meta.url).pathname;

/** Unix seconds of every test chain's genesis block; the clock starts a minute later. */
export const genesisTimestamp = 1_700_000_000;

export interface DevnetAccounts {
  /** Names the test: labels its accounts, seeds its rng and names its anvil folder. */
  seed: string;
  deployer: Address;
  wallets: Address[];
}

/** The deployer and `count` wallets of a test, at addresses derived from its seed. */
export function devnetAccounts(seed: string, count: number): DevnetAccounts {
  const address = (label: string): Address => getAddress(slice(keccak256(stringToHex(label)), 12));
  return { seed, deployer: address(`${seed}/deployer`), wallets: Array.from({ length: count }, (_, index) => address(`${seed}/wallet/${index}`)) };
}

/** What one action of one wallet did, and the block its transactions were mined in. */
export interface Performed {
  wallet: Address;
  kind: string;
  result: ActionResult;
  block: MinedBlock;
}

export type Step = Omit<Performed, 'wallet' | 'block'>;

/** What `wallet` (the `index`-th to act in the round) does in round `round`; undefined when nothing. */
export type Act = (context: ActionContext, wallet: Address, index: number, round: number) => Promise<Step | undefined>;

/** Runs the action for the wallet, recording its kind with what it sent. */
export async function perform(action: ActionSpec, context: ActionContext, wallet: Address): Promise<Step | undefined> {
  const result = await action.run(context, wallet);
  return result && { kind: action.kind, result };
}

/** Each wallet walks the list from its own place: wallet `index` takes action `round + index * stride` (wrapping). */
export function walkActions(actions: readonly ActionSpec[], stride = 1): Act {
  return (context, wallet, index, round) => perform(actions[(round + index * stride) % actions.length]!, context, wallet);
}

/**
 * Every performed transaction succeeded, except those its action declared must revert: with
 * `'every'` all of such an action's transactions, with `'last'` only its last one.
 */
export function expectDeclaredOutcomes(performed: readonly Performed[], failing: 'every' | 'last'): void {
  for (const { kind, result, block } of performed) {
    result.hashes.forEach((hash, position) => {
      const fails = result.expectFailure === true && (failing === 'every' || position === result.hashes.length - 1);
      expect({ kind, label: result.label, status: block.receipts.get(hash)?.status }).toEqual({
        kind,
        label: result.label,
        status: fails ? 'reverted' : 'success',
      });
    });
  }
}

/** Block timestamps handed out in order. */
export interface Clock {
  readonly now: number;
  /** A deployment's block: twelve seconds on. */
  tick(): number;
  advance(seconds: number): number;
}

export interface SetupDevnetOptions {
  accounts: DevnetAccounts;
  /** Whole ETH the deployer starts with (default a million). */
  deployerEth?: string;
  /** Each wallet's starting ETH, set before the modules deploy (default: none). */
  walletEth?: (index: number) => bigint;
  /** Folder of the contracts to compile (default: the package's), or a function that writes them under the anvil folder and returns theirs. */
  contracts?: string | ((anvilDir: string) => Promise<string>);
  /** Manifest sections the modules read that no module here deploys. */
  deployed?: Record<string, unknown>;
  /**
   * Deployed in order, each seeing the manifests of those before it. One module deploys with the
   * rng fork `deploy`, several with `deploy/<name>`.
   */
  modules?: readonly ProtocolModule<any>[];
}

export interface RunActionsOptions {
  /** At most this many rounds, one block each. */
  rounds: number;
  /** Checked before each round: no more rounds once it holds. */
  until?: () => boolean;
  /** Seconds from one round's block to the next. */
  seconds: number;
  /** What the wallets do. */
  act: Act;
  /** The rng a round's context draws from (default: the fork `round/<round>`). */
  rng?: (round: number) => Rng;
  /** The order the wallets act in (default: as listed). */
  order?: (context: ActionContext) => readonly Address[];
  /** Runs before each round takes its timestamp. */
  beforeRound?: (round: number) => Promise<void>;
}

export interface Devnet extends DevnetAccounts {
  session: ChainSession;
  client: DevnetClient;
  artifacts: Artifacts;
  rng: Rng;
  clock: Clock;
  /** Manifests by module name: what action contexts see. */
  deployed: Record<string, unknown>;
  /** Blocks mined by `mine` and `runActions`, in order. */
  mined: MinedBlock[];
  /** Everything `runActions` performed, in order. */
  performed: Performed[];
  deploy<M>(module: ProtocolModule<M>, rngLabel?: string): Promise<M>;
  manifest<M>(module: ProtocolModule<M>): M;
  context(rng: Rng, timestamp: number): ActionContext;
  /** Mines the pending transactions at `timestamp`, recording the block in `mined`. */
  mine(timestamp: number): Promise<MinedBlock>;
  /** Sends an ERC-20 transfer, from the deployer unless told. */
  sendToken(token: Address, to: Address, amount: bigint, options?: { from?: Address; gas?: bigint }): Promise<Hash>;
  /**
   * Sets each wallet's ETH and sends it tokens of the tokens module from the deployer, drawing the
   * amounts from `rng` wallet by wallet (ETH first, then the tokens in order); mines them
   * `seconds` later.
   */
  fundWallets(options: {
    rng: Rng;
    eth: (rng: Rng) => number;
    tokens: TokensManifest;
    amounts: readonly (readonly [symbol: string, amount: (rng: Rng) => number])[];
    seconds: number;
  }): Promise<MinedBlock>;
  /** Rounds of wallet actions, each mined in its own block; returns those blocks. */
  runActions(options: RunActionsOptions): Promise<MinedBlock[]>;
  /** Stops anvil and removes its folder. */
  stop(): Promise<void>;
}

export async function setupDevnet(options: SetupDevnetOptions): Promise<Devnet> {
  const { seed, deployer, wallets } = options.accounts;
  await mkdir(join(dataDir, 'test-anvil'), { recursive: true });
  const anvilDir = await mkdtemp(join(dataDir, 'test-anvil', `${seed.replace(/-test$/, '')}-`));
  let anvil: AnvilInstance | undefined;
  const stop = async () => {
    await anvil?.stop();
    await rm(anvilDir, { recursive: true, force: true });
  };
  try {
    const sources = typeof options.contracts === 'function' ? await options.contracts(anvilDir) : (options.contracts ?? contractsDir);
    const artifacts = await compileContracts(sources, join(dataDir, 'artifacts'));
    anvil = await startAnvil({ chainId: 1, cachePath: anvilDir, genesisTimestamp });
    const session = await createChainSession(anvil.rpcUrl);
    await session.setBalance(deployer, parseEther(options.deployerEth ?? '1000000'));
    if (options.walletEth) for (const [index, wallet] of wallets.entries()) await session.setBalance(wallet, options.walletEth(index));

    let now = genesisTimestamp + 60;
    const clock: Clock = {
      get now() {
        return now;
      },
      tick: () => (now += 12),
      advance: (seconds) => (now += seconds),
    };
    const rng = createRng(seed);
    const deployed: Record<string, unknown> = { ...options.deployed };
    const mined: MinedBlock[] = [];
    const performed: Performed[] = [];

    const devnet: Devnet = {
      seed,
      deployer,
      wallets,
      session,
      client: session.client,
      artifacts,
      rng,
      clock,
      deployed,
      mined,
      performed,
      async deploy(module, rngLabel = 'deploy') {
        const manifest = await module.deploy({
          session,
          artifacts,
          deployer,
          seed,
          days: 30,
          rng: rng.fork(rngLabel),
          clock: clock.tick,
          deployed: { ...deployed },
        });
        deployed[module.name] = manifest;
        return manifest;
      },
      manifest<M>(module: ProtocolModule<M>): M {
        if (!(module.name in deployed)) throw new Error(`module ${module.name} is not deployed`);
        return deployed[module.name] as M;
      },
      context: (contextRng, timestamp) => ({ session, rng: contextRng, timestamp, wallets, deployer, deployed }),
      async mine(timestamp) {
        const block = await session.mine(timestamp);
        mined.push(block);
        return block;
      },
      sendToken(token, to, amount, { from = deployer, gas = 120_000n } = {}) {
        return session.send({ from, to: token, data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] }), gas });
      },
      async fundWallets({ rng: fundRng, eth, tokens, amounts, seconds }) {
        for (const wallet of wallets) {
          await session.setBalance(wallet, parseEther(String(eth(fundRng))));
          for (const [symbol, amount] of amounts) {
            const token = tokenBySymbol(tokens, symbol);
            await devnet.sendToken(token.address, wallet, parseUnits(String(amount(fundRng)), token.decimals));
          }
        }
        return devnet.mine(clock.advance(seconds));
      },
      async runActions({ rounds, until, seconds, act, rng: roundRng, order, beforeRound }) {
        const blocks: MinedBlock[] = [];
        for (let round = 0; round < rounds && !until?.(); round++) {
          await beforeRound?.(round);
          const context = devnet.context(roundRng ? roundRng(round) : rng.fork(`round/${round}`), clock.advance(seconds));
          const sent: Omit<Performed, 'block'>[] = [];
          for (const [index, wallet] of (order ? order(context) : wallets).entries()) {
            const step = await act(context, wallet, index, round);
            if (step) sent.push({ wallet, ...step });
          }
          const block = await devnet.mine(context.timestamp);
          performed.push(...sent.map((entry) => ({ ...entry, block })));
          blocks.push(block);
        }
        return blocks;
      },
      stop,
    };

    const modules = options.modules ?? [];
    for (const module of modules) await devnet.deploy(module, modules.length === 1 ? 'deploy' : `deploy/${module.name}`);
    return devnet;
  } catch (error) {
    await stop();
    throw error;
  }
}
