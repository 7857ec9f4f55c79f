import type { Address, Hash } from 'viem';
import type { ChainSession } from '../chain/index.js';
import type { Artifacts } from '../compile/index.js';
import type { Rng } from './rng.js';

/** What a protocol module sees while it deploys: blocks are mined at the times `clock` hands out. */
export interface DeployContext {
  session: ChainSession;
  /** The world's seed, the same on every chain (a chain's own randomness comes from `rng`). */
  seed: string;
  /** Days of activity the world spans after its deployments. */
  days: number;
  artifacts: Artifacts;
  /** Funded account that owns every deployed contract. */
  deployer: Address;
  rng: Rng;
  /** The next block timestamp (each call advances the world's clock a little). */
  clock(): number;
  /** Manifests of the modules deployed before this one, by module name. */
  deployed: Readonly<Record<string, unknown>>;
}

/** What an action sees: its transactions are mined together at `timestamp` after it returns. */
export interface ActionContext {
  session: ChainSession;
  rng: Rng;
  timestamp: number;
  /** Every generated externally owned wallet, for choosing counterparties. */
  wallets: readonly Address[];
  deployer: Address;
  deployed: Readonly<Record<string, unknown>>;
}

export interface ActionResult {
  /** Short label recorded in the manifest for the wallet, e.g. `uniswap-v2:swap`. */
  label: string;
  /** Who sent the transactions when it is not the wallet the action was given (e.g. the deployer). */
  actor?: Address;
  hashes: Hash[];
  /** The action sends a transaction that must revert (failed-transaction coverage). */
  expectFailure?: boolean;
}

/**
 * One kind of wallet activity. `run` only sends transactions (one wallet never has two actions
 * in one block, so it may read its state at the latest block); it returns undefined when the
 * action does not apply to this wallet now (nothing to sell, no position to close, ...).
 */
export interface ActionSpec {
  kind: string;
  weight: number;
  run(context: ActionContext, wallet: Address): Promise<ActionResult | undefined>;
}

export interface ProtocolModule<M> {
  /** Key of the module's section in the manifest. */
  name: string;
  deploy(context: DeployContext): Promise<M>;
  /** Gives a newly created wallet what it needs to take part (tokens, not approvals: those are actions). */
  fund?(context: ActionContext, deployed: M, wallet: Address): Promise<void>;
  actions(deployed: M): ActionSpec[];
  /**
   * Trades of the market itself (arbitrage), sent at the start of every block before the wallets
   * act, while the world is built and in live mode; its transactions belong to no wallet.
   */
  market?(context: ActionContext, deployed: M): Promise<Hash[]>;
  /** Brings the module's manifest up to date with the chain once the last block is mined. */
  finalize?(context: ActionContext, deployed: M): Promise<void>;
}
