import type { Address, Hex } from 'viem';

export type SmartWalletRecord =
  | {
      kind: 'safe';
      address: Address;
      /** In the order given at setup. */
      owners: Address[];
      threshold: number;
      /** A failed inner call reverts the whole transaction instead of emitting ExecutionFailure. */
      requireSuccess: boolean;
    }
  | {
      kind: 'smart-account';
      address: Address;
      /** The ECDSA key holder (an EOA that never sends transactions itself). */
      owners: [Address];
      threshold: 1;
    };

export interface SmartAccountInfo {
  address: Address;
  owner: Address;
  /** Devnet-only key derived from the world's seed: the owner signs user operations with it. */
  ownerPrivateKey: Hex;
  /** CREATE2 salt given to the account factory, as a decimal string. */
  salt: string;
}

/** The `smartWallets` section of the manifest. */
export interface SmartWalletsManifest {
  safeSingleton: Address;
  safeFactory: Address;
  entryPoint: Address;
  accountFactory: Address;
  /** Sends every `handleOps` bundle and pays its gas (the deployer). */
  bundler: Address;
  /** Counterfactual at deployment: each is deployed by its first user operation. */
  smartAccounts: SmartAccountInfo[];
  /**
   * Every smart wallet, read by the world builder. The smart accounts are known at deployment;
   * safes are created by wallets' actions and are listed as the chain's safe registry shows them
   * at the latest block whenever one of this module's actions runs (so a reorg that dropped a
   * safe's creation drops it here too).
   */
  wallets: SmartWalletRecord[];
}
