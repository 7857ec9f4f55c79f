import { parseAbi } from 'viem';

// Typed fragments of the contracts in contracts/defi (and of ERC-20 and WETH9) for reads and
// calldata; deployments use the compiled artifacts.

export const erc20Abi = parseAbi([
  'function balanceOf(address) view returns (uint256)',
  'function allowance(address owner, address spender) view returns (uint256)',
  'function approve(address spender, uint256 amount) returns (bool)',
  'function transfer(address to, uint256 amount) returns (bool)',
  'function transferFrom(address from, address to, uint256 amount) returns (bool)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
]);

export const wethAbi = parseAbi(['function deposit() payable']);

export const vaultAbi = parseAbi([
  'function balanceOf(address) view returns (uint256)',
  'function totalSupply() view returns (uint256)',
  'function totalAssets() view returns (uint256)',
  'function convertToAssets(uint256 shares) view returns (uint256)',
  'function maxWithdraw(address owner) view returns (uint256)',
  'function previewRedeem(uint256 shares) view returns (uint256)',
  'function streamAmount() view returns (uint256)',
  'function streamStart() view returns (uint64)',
  'function streamEnd() view returns (uint64)',
  'function unvested() view returns (uint256)',
  'function deposit(uint256 assets, address receiver) returns (uint256)',
  'function withdraw(uint256 assets, address receiver, address owner) returns (uint256)',
  'function redeem(uint256 shares, address receiver, address owner) returns (uint256)',
  'function donateYield(uint256 assets, uint256 duration)',
  'event Deposit(address indexed sender, address indexed owner, uint256 assets, uint256 shares)',
  'event Withdraw(address indexed sender, address indexed receiver, address indexed owner, uint256 assets, uint256 shares)',
  'event YieldDonated(address indexed from, uint256 assets, uint256 streamAmount, uint256 streamEnd)',
]);

export const stakingAbi = parseAbi([
  'struct Lock { uint128 amount; uint64 unlockTime; uint32 boostBps; bool withdrawn; }',
  'function SHORT_LOCK() view returns (uint256)',
  'function LONG_LOCK() view returns (uint256)',
  'function rewardRate() view returns (uint256)',
  'function periodFinish() view returns (uint256)',
  'function lastUpdateTime() view returns (uint256)',
  'function rewardPerWeightStored() view returns (uint256)',
  'function totalWeight() view returns (uint256)',
  'function weightOf(address) view returns (uint256)',
  'function flexibleBalanceOf(address) view returns (uint256)',
  'function rewardPerWeightPaid(address) view returns (uint256)',
  'function rewards(address) view returns (uint256)',
  'function earned(address) view returns (uint256)',
  'function locksOf(address) view returns (Lock[])',
  'function stake(uint256 amount)',
  'function stakeLocked(uint256 amount, uint256 duration) returns (uint256)',
  'function withdraw(uint256 amount)',
  'function withdrawLocked(uint256 lockId)',
  'function claim() returns (uint256)',
  'function notifyRewardAmount(uint256 reward, uint256 duration)',
  'event Staked(address indexed user, uint256 amount)',
  'event StakedLocked(address indexed user, uint256 indexed lockId, uint256 amount, uint256 unlockTime)',
  'event Withdrawn(address indexed user, uint256 amount)',
  'event WithdrawnLocked(address indexed user, uint256 indexed lockId, uint256 amount)',
  'event RewardPaid(address indexed user, uint256 reward)',
  'error StillLocked(uint256 unlockTime)',
]);

export const lendingAbi = parseAbi([
  'struct MarketState { uint256 cash; uint256 totalBorrows; uint256 totalReserves; uint256 totalShares; uint256 borrowIndex; uint256 lastAccrual; }',
  'function marketConfig(address) view returns (bool listed, uint8 decimals, uint256 collateralFactor, uint256 reserveFactor, uint256 baseRatePerSecond, uint256 slopePerSecond, uint256 price)',
  'function marketState(address) view returns (uint256 cash, uint256 totalBorrows, uint256 totalReserves, uint256 totalShares, uint256 borrowIndex, uint256 lastAccrual)',
  'function accruedState(address) view returns (MarketState)',
  'function borrowRatePerSecond(address token) view returns (uint256)',
  'function supplySharesOf(address token, address account) view returns (uint256)',
  'function borrowSnapshotOf(address token, address account) view returns (uint256 principal, uint256 index)',
  'function supplyBalanceOf(address token, address account) view returns (uint256)',
  'function borrowBalanceOf(address token, address account) view returns (uint256)',
  'function accountLiquidity(address account) view returns (uint256 liquidity, uint256 shortfall)',
  'function listMarket(address token, uint256 collateralFactor, uint256 reserveFactor, uint256 baseRatePerYear, uint256 slopePerYear, uint256 price)',
  'function setPrice(address token, uint256 price)',
  'function supply(address token, uint256 amount) returns (uint256)',
  'function withdraw(address token, uint256 amount) returns (uint256)',
  'function borrow(address token, uint256 amount)',
  'function repay(address token, uint256 amount) returns (uint256)',
  'event Supply(address indexed token, address indexed account, uint256 amount, uint256 shares)',
  'event Withdraw(address indexed token, address indexed account, uint256 amount, uint256 shares)',
  'event Borrow(address indexed token, address indexed account, uint256 amount, uint256 accountDebt, uint256 totalBorrows)',
  'event Repay(address indexed token, address indexed account, uint256 amount, uint256 accountDebt, uint256 totalBorrows)',
  'event PriceUpdated(address indexed token, uint256 price)',
  'error InsufficientLiquidity(uint256 shortfall)',
  'error InsufficientCash(uint256 cash)',
]);
