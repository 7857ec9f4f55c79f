import { AssetKind } from '@wallet-api/core/proto/events';
import { encodeAbiParameters, encodeEventTopics, parseAbi, type Hex } from 'viem';
import { zeroAddress } from '@wallet-api/core/transactions';
import { decodeLog, type LogEvent, type ReceiptLog } from './log-event.js';

const alice = '0x00000000000000000000000000000000000a11ce';
const bob = '0x0000000000000000000000000000000000000b0b';
const token = '0x00000000000000000000000000000000000000c1';
const mixedCase = '0x00000000000000000000000000000000000000C1';

const abi = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event NftTransfer(address indexed from, address indexed to, uint256 indexed tokenId)',
  'event Approval(address indexed owner, address indexed spender, uint256 value)',
  'event NftApproval(address indexed owner, address indexed approved, uint256 indexed tokenId)',
  'event ApprovalForAll(address indexed owner, address indexed operator, bool approved)',
  'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
  'event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)',
  'event Deposit(address indexed dst, uint256 wad)',
  'event Withdrawal(address indexed src, uint256 wad)',
  'event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)',
  'event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)',
  'event Staked(address indexed user, uint256 amount)',
  'event RewardPaid(address indexed user, uint256 reward)',
  'event Supply(address indexed token, address indexed account, uint256 amount, uint256 shares)',
  'event Withdraw(address indexed token, address indexed account, uint256 amount, uint256 shares)',
  'event Withdraw(address indexed sender, address indexed receiver, address indexed owner, uint256 assets, uint256 shares)',
  'event Listed(uint256 indexed listingId, address indexed seller, address indexed nft, uint256 tokenId, uint256 price)',
  'event UserOperationEvent(bytes32 indexed userOpHash, address indexed sender, address indexed paymaster, uint256 nonce, bool success, uint256 actualGasCost, uint256 actualGasUsed)',
  'event ExecutionSuccess(bytes32 txHash, uint256 payment)',
]);

/** The real ERC-721 topic is the ERC-20 one; the test ABI only renames the events to tell them apart. */
const renamed: Record<string, string> = { NftTransfer: 'Transfer', NftApproval: 'Approval' };

function log(
  signature: string,
  indexed: readonly unknown[],
  data: { types: string[]; values: readonly unknown[] } = { types: [], values: [] },
  address = mixedCase,
): ReceiptLog {
  const event = abi.find((item) => `${item.name}(${item.inputs.map((input) => input.type).join(',')})` === signature)!;
  const real = { ...event, name: renamed[event.name] ?? event.name };
  const topics = encodeEventTopics({ abi: [real], eventName: real.name, args: indexed as never } as never) as Hex[];
  const encoded = encodeAbiParameters(
    data.types.map((type) => ({ type })),
    data.values as never,
  );
  return { address, topics, data: encoded };
}

const erc20 = { kind: AssetKind.ASSET_KIND_ERC20, address: token };
const words = (...values: bigint[]) => ({ types: values.map(() => 'uint256'), values });

describe('decodeLog', () => {
  test.each<{ name: string; log: ReceiptLog; expected: LogEvent | undefined }>([
    {
      name: 'ERC-20 Transfer',
      log: log('Transfer(address,address,uint256)', [alice, bob], words(5n)),
      expected: { type: 'movements', movements: [{ asset: erc20, amount: 5n, sender: alice, recipient: bob }] },
    },
    {
      name: 'ERC-721 Transfer carries the token id as a fourth topic',
      log: log('NftTransfer(address,address,uint256)', [zeroAddress, bob, 7n]),
      expected: {
        type: 'movements',
        movements: [{ asset: { kind: AssetKind.ASSET_KIND_ERC721, address: token, tokenId: 7n }, amount: 1n, sender: zeroAddress, recipient: bob }],
      },
    },
    {
      name: 'a Transfer topic with neither layout is left out',
      log: { address: token, topics: log('Transfer(address,address,uint256)', [alice, bob]).topics.slice(0, 2), data: '0x' },
      expected: undefined,
    },
    {
      name: 'ERC-1155 TransferSingle',
      log: log('TransferSingle(address,address,address,uint256,uint256)', [bob, alice, bob], words(3n, 10n)),
      expected: {
        type: 'movements',
        movements: [{ asset: { kind: AssetKind.ASSET_KIND_ERC1155, address: token, tokenId: 3n }, amount: 10n, sender: alice, recipient: bob }],
      },
    },
    {
      name: 'ERC-1155 TransferBatch, one movement per id',
      log: log('TransferBatch(address,address,address,uint256[],uint256[])', [alice, alice, bob], {
        types: ['uint256[]', 'uint256[]'],
        values: [
          [1n, 2n],
          [4n, 6n],
        ],
      }),
      expected: {
        type: 'movements',
        movements: [
          { asset: { kind: AssetKind.ASSET_KIND_ERC1155, address: token, tokenId: 1n }, amount: 4n, sender: alice, recipient: bob },
          { asset: { kind: AssetKind.ASSET_KIND_ERC1155, address: token, tokenId: 2n }, amount: 6n, sender: alice, recipient: bob },
        ],
      },
    },
    {
      name: 'ERC-20 Approval',
      log: log('Approval(address,address,uint256)', [alice, bob], words(100n)),
      expected: { type: 'approval', approval: { kind: AssetKind.ASSET_KIND_ERC20, token, owner: alice, spender: bob, amount: 100n } },
    },
    {
      name: 'ERC-20 Approval to zero (a revoke)',
      log: log('Approval(address,address,uint256)', [alice, bob], words(0n)),
      expected: { type: 'approval', approval: { kind: AssetKind.ASSET_KIND_ERC20, token, owner: alice, spender: bob, amount: 0n } },
    },
    {
      name: 'ERC-721 Approval of one token',
      log: log('NftApproval(address,address,uint256)', [alice, bob, 9n]),
      expected: { type: 'approval', approval: { kind: AssetKind.ASSET_KIND_ERC721, token, tokenId: 9n, owner: alice, spender: bob, amount: 1n } },
    },
    {
      name: 'ERC-721 Approval cleared to the zero address',
      log: log('NftApproval(address,address,uint256)', [alice, zeroAddress, 9n]),
      expected: { type: 'approval', approval: { kind: AssetKind.ASSET_KIND_ERC721, token, tokenId: 9n, owner: alice, spender: zeroAddress, amount: 0n } },
    },
    {
      name: 'ApprovalForAll granted',
      log: log('ApprovalForAll(address,address,bool)', [alice, bob], { types: ['bool'], values: [true] }),
      expected: { type: 'collection-approval', approval: { collection: token, owner: alice, operator: bob, approved: true } },
    },
    {
      name: 'ApprovalForAll withdrawn',
      log: log('ApprovalForAll(address,address,bool)', [alice, bob], { types: ['bool'], values: [false] }),
      expected: { type: 'collection-approval', approval: { collection: token, owner: alice, operator: bob, approved: false } },
    },
    {
      name: 'WETH Deposit mints the wrapped token it emits no Transfer for',
      log: log('Deposit(address,uint256)', [alice], words(8n)),
      expected: {
        type: 'act',
        act: 'deposit',
        contract: token,
        actor: alice,
        movements: [{ asset: erc20, amount: 8n, sender: zeroAddress, recipient: alice }],
      },
    },
    {
      name: 'WETH Withdrawal burns it',
      log: log('Withdrawal(address,uint256)', [alice], words(8n)),
      expected: {
        type: 'act',
        act: 'withdraw',
        contract: token,
        actor: alice,
        movements: [{ asset: erc20, amount: 8n, sender: alice, recipient: zeroAddress }],
      },
    },
    {
      name: 'Uniswap V2 Swap',
      log: log('Swap(address,uint256,uint256,uint256,uint256,address)', [bob, alice], words(1n, 0n, 0n, 2n)),
      expected: { type: 'act', act: 'trade', contract: token, movements: [] },
    },
    {
      name: 'Uniswap V3 Swap',
      log: log('Swap(address,address,int256,int256,uint160,uint128,int24)', [bob, alice], {
        types: ['int256', 'int256', 'uint160', 'uint128', 'int24'],
        values: [-1n, 2n, 3n, 4n, -5],
      }),
      expected: { type: 'act', act: 'trade', contract: token, movements: [] },
    },
    {
      name: 'staking Staked',
      log: log('Staked(address,uint256)', [alice], words(3n)),
      expected: { type: 'act', act: 'deposit', contract: token, actor: alice, movements: [] },
    },
    {
      name: 'staking RewardPaid',
      log: log('RewardPaid(address,uint256)', [alice], words(3n)),
      expected: { type: 'act', act: 'claim', contract: token, actor: alice, movements: [] },
    },
    {
      name: 'lending Supply',
      log: log('Supply(address,address,uint256,uint256)', [token, alice], words(3n, 3n)),
      expected: { type: 'act', act: 'deposit', contract: token, actor: alice, movements: [] },
    },
    {
      name: 'lending Withdraw',
      log: log('Withdraw(address,address,uint256,uint256)', [token, alice], words(3n, 3n)),
      expected: { type: 'act', act: 'withdraw', contract: token, actor: alice, movements: [] },
    },
    {
      name: 'ERC-4626 Withdraw names the share owner',
      log: log('Withdraw(address,address,address,uint256,uint256)', [bob, bob, alice], words(3n, 3n)),
      expected: { type: 'act', act: 'withdraw', contract: token, actor: alice, movements: [] },
    },
    {
      name: 'market Listed',
      log: log('Listed(uint256,address,address,uint256,uint256)', [1n, alice, bob], words(4n, 5n)),
      expected: { type: 'act', act: 'bid', contract: token, actor: alice, movements: [] },
    },
    {
      name: 'UserOperationEvent',
      log: log('UserOperationEvent(bytes32,address,address,uint256,bool,uint256,uint256)', [`0x${'11'.repeat(32)}`, alice, bob], {
        types: ['uint256', 'bool', 'uint256', 'uint256'],
        values: [0n, true, 0n, 1n],
      }),
      expected: { type: 'user-operation', account: alice, paymaster: bob },
    },
    {
      name: 'Safe ExecutionSuccess names the Safe',
      log: log('ExecutionSuccess(bytes32,uint256)', [], { types: ['bytes32', 'uint256'], values: [`0x${'22'.repeat(32)}`, 0n] }),
      expected: { type: 'safe-execution', account: token },
    },
    { name: 'an unknown event', log: { address: token, topics: [`0x${'33'.repeat(32)}`], data: '0x' }, expected: undefined },
    { name: 'an anonymous log', log: { address: token, topics: [], data: '0x' }, expected: undefined },
  ])('$name', ({ log, expected }) => {
    expect(decodeLog(log)).toEqual(expected);
  });
});
