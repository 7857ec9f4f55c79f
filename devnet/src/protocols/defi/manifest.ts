import type { Address } from 'viem';

export interface DefiVaultInfo {
  address: Address;
  name: string;
  symbol: string;
  decimals: number;
  asset: Address;
  assetSymbol: string;
}

export interface DefiLendingMarketInfo {
  token: Address;
  symbol: string;
  decimals: number;
  /** Share of the supplied value that can be borrowed against, 1e18 scaled, as a decimal string. */
  collateralFactor: string;
}

export interface DefiTokenInfo {
  address: Address;
  name: string;
  symbol: string;
  decimals: number;
}

/** The `defi` section of the manifest. */
export interface DefiManifest {
  /** WETH of the tokens module: actions wrap ETH when a wallet puts more WETH in than it holds. */
  weth: Address;
  /** ERC-4626 vaults over the USD stablecoin and WETH, with yield streamed in by the deployer. */
  vaults: DefiVaultInfo[];
  staking: {
    address: Address;
    stakingToken: Address;
    rewardToken: Address;
    /** Lock periods (seconds) a locked stake may choose. */
    lockDurations: number[];
    /** Unix seconds when the reward stream set at deployment ends. */
    periodFinish: number;
  };
  lending: {
    address: Address;
    markets: DefiLendingMarketInfo[];
  };
  /** ERC-20s the module created: the staking reward token and the vault shares. */
  tokens: DefiTokenInfo[];
}
