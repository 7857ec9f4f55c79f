import { AssetKind } from '@wallet-api/core/proto/events';
import { decodeEventLog, parseAbi, toEventSelector, type AbiEvent, type Hex } from 'viem';
import { zeroAddress } from '@wallet-api/core/transactions';
import type { Movement } from './movement.js';
import type { ActType } from '@wallet-api/core/transactions';

export interface TokenApproval {
  /** ERC-20 (allowance `amount`) or ERC-721 (one token, `tokenId`; `amount` 1, or 0 on revoke). */
  kind: AssetKind.ASSET_KIND_ERC20 | AssetKind.ASSET_KIND_ERC721;
  token: string;
  tokenId?: bigint;
  owner: string;
  spender: string;
  amount: bigint;
}

export interface CollectionApprovalEvent {
  collection: string;
  owner: string;
  operator: string;
  approved: boolean;
}

/** What one receipt log means to the decoder; logs it does not know are left out. */
export type LogEvent =
  | { type: 'movements'; movements: Movement[] }
  | { type: 'approval'; approval: TokenApproval }
  | { type: 'collection-approval'; approval: CollectionApprovalEvent }
  /**
   * A protocol event naming what the transaction did (a swap, a deposit, ...). `movements` are
   * those the event itself stands for (WETH9 emits no Transfer when it wraps or unwraps).
   * `actor` is the account the event says acted, when it names one.
   */
  | { type: 'act'; act: ActType; contract: string; actor?: string; movements: Movement[] }
  /** The account abstraction wrappers: whatever precedes them in the log was done for `account`. */
  | { type: 'user-operation'; account: string; paymaster: string }
  | { type: 'safe-execution'; account: string }
  /** A factory or EntryPoint created a smart-contract wallet: its history starts here. */
  | { type: 'wallet-created'; account: string };

export interface ReceiptLog {
  address: string;
  topics: readonly Hex[];
  data: Hex;
}

/**
 * Protocol events by the act they stand for, and the argument naming the acting account. Uniswap
 * V3 pool Mint/Burn/Collect are left to the position manager's events, which come after them and
 * name the same liquidity change, so one change makes one act.
 */
const actEvents: { signature: string; act: ActType; actor?: string }[] = [
  {
    signature: 'event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)',
    act: 'trade',
  },
  {
    signature:
      'event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)',
    act: 'trade',
  },
  { signature: 'event Mint(address indexed sender, uint256 amount0, uint256 amount1)', act: 'deposit' },
  { signature: 'event Burn(address indexed sender, uint256 amount0, uint256 amount1, address indexed to)', act: 'withdraw' },
  { signature: 'event IncreaseLiquidity(uint256 indexed tokenId, uint128 liquidity, uint256 amount0, uint256 amount1)', act: 'deposit' },
  { signature: 'event DecreaseLiquidity(uint256 indexed tokenId, uint128 liquidity, uint256 amount0, uint256 amount1)', act: 'withdraw' },
  { signature: 'event Collect(uint256 indexed tokenId, address recipient, uint256 amount0, uint256 amount1)', act: 'withdraw' },
  { signature: 'event Deposit(address indexed sender, address indexed owner, uint256 assets, uint256 shares)', act: 'deposit', actor: 'owner' },
  {
    signature: 'event Withdraw(address indexed sender, address indexed receiver, address indexed owner, uint256 assets, uint256 shares)',
    act: 'withdraw',
    actor: 'owner',
  },
  { signature: 'event Staked(address indexed user, uint256 amount)', act: 'deposit', actor: 'user' },
  { signature: 'event StakedLocked(address indexed user, uint256 indexed lockId, uint256 amount, uint256 unlockTime)', act: 'deposit', actor: 'user' },
  { signature: 'event Withdrawn(address indexed user, uint256 amount)', act: 'withdraw', actor: 'user' },
  { signature: 'event WithdrawnLocked(address indexed user, uint256 indexed lockId, uint256 amount)', act: 'withdraw', actor: 'user' },
  { signature: 'event RewardPaid(address indexed user, uint256 reward)', act: 'claim', actor: 'user' },
  { signature: 'event Supply(address indexed token, address indexed account, uint256 amount, uint256 shares)', act: 'deposit', actor: 'account' },
  { signature: 'event Withdraw(address indexed token, address indexed account, uint256 amount, uint256 shares)', act: 'withdraw', actor: 'account' },
  // Borrowing takes funds out of the market and repaying puts them back; decisions.md has no loan types.
  {
    signature: 'event Borrow(address indexed token, address indexed account, uint256 amount, uint256 accountDebt, uint256 totalBorrows)',
    act: 'withdraw',
    actor: 'account',
  },
  {
    signature: 'event Repay(address indexed token, address indexed account, uint256 amount, uint256 accountDebt, uint256 totalBorrows)',
    act: 'deposit',
    actor: 'account',
  },
  {
    signature: 'event Listed(uint256 indexed listingId, address indexed seller, address indexed nft, uint256 tokenId, uint256 price)',
    act: 'bid',
    actor: 'seller',
  },
  // A fixed-price purchase: the buyer sends ETH and receives the NFT, which is what a trade is.
  {
    signature: 'event Sold(uint256 indexed listingId, address indexed buyer, address indexed seller, address nft, uint256 tokenId, uint256 price)',
    act: 'trade',
    actor: 'buyer',
  },
];

const [
  transferEvent,
  approvalEvent,
  approvalForAllEvent,
  transferSingleEvent,
  transferBatchEvent,
  wethDepositEvent,
  wethWithdrawalEvent,
  userOperationEvent,
  safeSuccessEvent,
  safeFailureEvent,
] = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Approval(address indexed owner, address indexed spender, uint256 value)',
  'event ApprovalForAll(address indexed owner, address indexed operator, bool approved)',
  'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
  'event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)',
  'event Deposit(address indexed dst, uint256 wad)',
  'event Withdrawal(address indexed src, uint256 wad)',
  'event UserOperationEvent(bytes32 indexed userOpHash, address indexed sender, address indexed paymaster, uint256 nonce, bool success, uint256 actualGasCost, uint256 actualGasUsed)',
  'event ExecutionSuccess(bytes32 txHash, uint256 payment)',
  'event ExecutionFailure(bytes32 txHash, uint256 payment)',
]);

const [erc721Transfer, erc721Approval] = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
  'event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId)',
]);

type Args = Record<string, unknown>;

/** The event's arguments, or undefined when the log has the topic but not the layout. */
function argsOf(event: AbiEvent, log: ReceiptLog): Args | undefined {
  try {
    const decoded = decodeEventLog({ abi: [event], data: log.data, topics: log.topics as [Hex, ...Hex[]], strict: true });
    return decoded.args as Args;
  } catch {
    return undefined;
  }
}

const address = (value: unknown) => (value as string).toLowerCase();

type Decoder = (log: ReceiptLog, contract: string) => LogEvent | undefined;

/** ERC-20 and ERC-721 share the Transfer and Approval topics and differ in the indexed token id. */
const decodeTransfer: Decoder = (log, contract) => {
  const token =
    log.topics.length === 4
      ? { kind: AssetKind.ASSET_KIND_ERC721, address: contract, tokenId: BigInt(log.topics[3]!) }
      : { kind: AssetKind.ASSET_KIND_ERC20, address: contract };
  const args = argsOf(log.topics.length === 4 ? erc721Transfer : transferEvent, log);
  if (!args) return undefined;
  const amount = token.kind === AssetKind.ASSET_KIND_ERC721 ? 1n : (args.value as bigint);
  return { type: 'movements', movements: [{ asset: token, amount, sender: address(args.from), recipient: address(args.to) }] };
};

const decodeApproval: Decoder = (log, contract) => {
  if (log.topics.length === 4) {
    const args = argsOf(erc721Approval, log);
    if (!args) return undefined;
    const spender = address(args.approved);
    return {
      type: 'approval',
      approval: {
        kind: AssetKind.ASSET_KIND_ERC721,
        token: contract,
        tokenId: args.tokenId as bigint,
        owner: address(args.owner),
        spender,
        amount: spender === zeroAddress ? 0n : 1n,
      },
    };
  }
  const args = argsOf(approvalEvent, log);
  if (!args) return undefined;
  return {
    type: 'approval',
    approval: { kind: AssetKind.ASSET_KIND_ERC20, token: contract, owner: address(args.owner), spender: address(args.spender), amount: args.value as bigint },
  };
};

const decoders = new Map<Hex, Decoder[]>();
function register(event: AbiEvent, decoder: Decoder): void {
  const topic = toEventSelector(event);
  decoders.set(topic, [...(decoders.get(topic) ?? []), decoder]);
}

register(transferEvent, decodeTransfer);
register(approvalEvent, decodeApproval);
register(approvalForAllEvent, (log, contract) => {
  const args = argsOf(approvalForAllEvent, log);
  return (
    args && {
      type: 'collection-approval',
      approval: { collection: contract, owner: address(args.owner), operator: address(args.operator), approved: args.approved as boolean },
    }
  );
});
register(transferSingleEvent, (log, contract) => {
  const args = argsOf(transferSingleEvent, log);
  if (!args) return undefined;
  const asset = { kind: AssetKind.ASSET_KIND_ERC1155, address: contract, tokenId: args.id as bigint };
  return { type: 'movements', movements: [{ asset, amount: args.value as bigint, sender: address(args.from), recipient: address(args.to) }] };
});
register(transferBatchEvent, (log, contract) => {
  const args = argsOf(transferBatchEvent, log);
  if (!args) return undefined;
  const ids = args.ids as bigint[];
  const values = args.values as bigint[];
  if (ids.length !== values.length) return undefined;
  const movements = ids.map((tokenId, index) => ({
    asset: { kind: AssetKind.ASSET_KIND_ERC1155, address: contract, tokenId },
    amount: values[index]!,
    sender: address(args.from),
    recipient: address(args.to),
  }));
  return { type: 'movements', movements };
});
register(wethDepositEvent, (log, contract) => {
  const args = argsOf(wethDepositEvent, log);
  if (!args) return undefined;
  const dst = address(args.dst);
  const movement = { asset: { kind: AssetKind.ASSET_KIND_ERC20, address: contract }, amount: args.wad as bigint, sender: zeroAddress, recipient: dst };
  return { type: 'act', act: 'deposit', contract, actor: dst, movements: [movement] };
});
register(wethWithdrawalEvent, (log, contract) => {
  const args = argsOf(wethWithdrawalEvent, log);
  if (!args) return undefined;
  const src = address(args.src);
  const movement = { asset: { kind: AssetKind.ASSET_KIND_ERC20, address: contract }, amount: args.wad as bigint, sender: src, recipient: zeroAddress };
  return { type: 'act', act: 'withdraw', contract, actor: src, movements: [movement] };
});
register(userOperationEvent, (log) => {
  const args = argsOf(userOperationEvent, log);
  return args && { type: 'user-operation', account: address(args.sender), paymaster: address(args.paymaster) };
});
for (const event of [safeSuccessEvent, safeFailureEvent]) {
  // Safe 1.4 indexes the hash that 1.3 does not; the emitting Safe is all the decoder needs.
  register(event, (_log, contract) => ({ type: 'safe-execution', account: contract }));
}
for (const [signature, argument] of [
  ['event ProxyCreation(address indexed proxy, address singleton)', 'proxy'],
  ['event InstanceCreation(address indexed safe)', 'safe'],
  ['event AccountDeployed(bytes32 indexed userOpHash, address indexed sender, address factory, address paymaster)', 'sender'],
] as const) {
  const [event] = parseAbi([signature]) as readonly AbiEvent[];
  register(event!, (log) => {
    const args = argsOf(event!, log);
    return args && { type: 'wallet-created', account: address(args[argument]) };
  });
}
for (const { signature, act, actor } of actEvents) {
  const [event] = parseAbi([signature]) as readonly AbiEvent[];
  register(event!, (log, contract) => {
    const args = argsOf(event!, log);
    if (!args) return undefined;
    return { type: 'act', act, contract, ...(actor ? { actor: address(args[actor]) } : {}), movements: [] };
  });
}

export function decodeLog(log: ReceiptLog): LogEvent | undefined {
  const topic = log.topics[0]?.toLowerCase() as Hex | undefined;
  if (!topic) return undefined;
  const contract = log.address.toLowerCase();
  for (const decoder of decoders.get(topic) ?? []) {
    const event = decoder(log, contract);
    if (event) return event;
  }
  return undefined;
}
