import { AssetKind, type BalanceChange, type WalletTransaction } from '@wallet-api/core/proto/events';
import { encodeAbiParameters, encodeEventTopics, parseAbi, type AbiParameter, type Hex, type Transaction, type TransactionReceipt } from 'viem';
import type { BlockBundle, CallFrame } from '../fetch/block-bundle.js';
import { zeroAddress } from '@wallet-api/core/transactions';
import { decodeBlock } from './decode-block.js';

const alice = '0x00000000000000000000000000000000000a11ce';
const bob = '0x0000000000000000000000000000000000000b0b';
const carol = '0x000000000000000000000000000000000000ca01';
const router = '0x00000000000000000000000000000000000000e0';
const pair = '0x00000000000000000000000000000000000000e1';
const usdc = '0x00000000000000000000000000000000000000c1';
const weth = '0x00000000000000000000000000000000000000c2';
const birds = '0x00000000000000000000000000000000000000c3';
const passes = '0x00000000000000000000000000000000000000c4';
const staking = '0x00000000000000000000000000000000000000c5';
const entryPoint = '0x00000000000000000000000000000000000000c6';
const account = '0x00000000000000000000000000000000000000c7';
const created = '0x00000000000000000000000000000000000000c8';

const abi = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Approval(address indexed owner, address indexed spender, uint256 value)',
  'event ApprovalForAll(address indexed owner, address indexed operator, bool approved)',
  'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
  'event Deposit(address indexed dst, uint256 wad)',
  'event Withdrawal(address indexed src, uint256 wad)',
  'event Sync(uint112 reserve0, uint112 reserve1)',
  'event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)',
  'event Staked(address indexed user, uint256 amount)',
  'event RewardPaid(address indexed user, uint256 reward)',
  'event UserOperationEvent(bytes32 indexed userOpHash, address indexed sender, address indexed paymaster, uint256 nonce, bool success, uint256 actualGasCost, uint256 actualGasUsed)',
  'event ProxyCreation(address indexed proxy, address singleton)',
  'event InstanceCreation(address indexed safe)',
  'event SafeSetup(address indexed initiator, address[] owners, uint256 threshold, address initializer, address fallbackHandler)',
]);

type Log = { address: string; topics: Hex[]; data: Hex };
const event = (address: string, name: string, args: Record<string, unknown>): Log => {
  const item = abi.find((candidate) => candidate.name === name)!;
  const topics = encodeEventTopics({ abi: [item], eventName: name, args } as never) as Hex[];
  const data = (item.inputs as readonly (AbiParameter & { indexed?: boolean })[]).filter((input) => !input.indexed);
  return { address, topics, data: encodeAbiParameters(data, data.map((input) => args[input.name!]) as never) };
};
const erc20Transfer = (token: string, from: string, to: string, value: bigint) => event(token, 'Transfer', { from, to, value });
const erc721Transfer = (token: string, from: string, to: string, tokenId: bigint): Log => {
  const topic = (address: string) => `0x${address.slice(2).padStart(64, '0')}` as Hex;
  return {
    address: token,
    topics: [erc20Transfer(token, from, to, 0n).topics[0]!, topic(from), topic(to), `0x${tokenId.toString(16).padStart(64, '0')}`],
    data: '0x',
  };
};

const frame = (from: string, to: string, value: bigint, fields: Partial<CallFrame> = {}): CallFrame => ({
  type: 'CALL',
  from: from as CallFrame['from'],
  to: to as CallFrame['to'],
  value: `0x${value.toString(16)}`,
  gas: '0x0',
  gasUsed: '0x0',
  input: '0x',
  ...fields,
});

interface Sent {
  from: string;
  to: string | null;
  value?: bigint;
  input?: Hex;
  logs?: Log[];
  calls?: CallFrame[];
  failed?: boolean;
  /** Root frame override (creations, reverted roots). */
  root?: CallFrame;
  contractAddress?: string;
}

/** gasUsed 21000 at 10 wei: every fee below is 210000. */
const fee = 210_000n;

function bundle(...sent: Sent[]): BlockBundle {
  const hashes = sent.map((_, index) => `0x${(index + 1).toString(16).padStart(64, '0')}` as Hex);
  return {
    chainId: 'ethereum',
    block: { number: 7n, hash: `0x${'AB'.repeat(32)}`, timestamp: 1_700_000_000n } as BlockBundle['block'],
    transactions: sent.map(
      (entry, index) =>
        ({ hash: hashes[index], from: entry.from, to: entry.to, nonce: index, value: entry.value ?? 0n, input: entry.input ?? '0x' }) as unknown as Transaction,
    ),
    receipts: sent.map(
      (entry, index) =>
        ({
          transactionHash: hashes[index],
          transactionIndex: index,
          status: entry.failed ? 'reverted' : 'success',
          gasUsed: 21_000n,
          effectiveGasPrice: 10n,
          contractAddress: entry.contractAddress ?? null,
          logs: entry.failed ? [] : (entry.logs ?? []),
        }) as unknown as TransactionReceipt,
    ),
    traces: sent.map((entry, index) => ({
      txHash: hashes[index]!,
      result:
        entry.root ??
        frame(entry.from, entry.to ?? '', entry.value ?? 0n, {
          ...(entry.calls ? { calls: entry.calls } : {}),
          ...(entry.failed ? { error: 'execution reverted' } : {}),
        }),
    })),
  };
}

const decodeOne = (sent: Sent): { tx: WalletTransaction; changes: BalanceChange[] } => {
  const { transactions, balanceChanges } = decodeBlock(bundle(sent));
  return { tx: transactions[0]!, changes: balanceChanges };
};

const native = { kind: AssetKind.ASSET_KIND_NATIVE, address: '', tokenId: '' };
const erc20 = (address: string) => ({ kind: AssetKind.ASSET_KIND_ERC20, address, tokenId: '' });
const nft = (kind: AssetKind, address: string, tokenId: string) => ({ kind, address, tokenId });

/** Balance changes as `wallet asset amount` lines, easy to read in a table. */
const nets = (changes: BalanceChange[]) =>
  changes.map((change) => `${change.wallet} ${change.asset!.kind}:${change.asset!.address}:${change.asset!.tokenId} ${change.amount}`).sort();
const net = (wallet: string, asset: { kind: AssetKind; address: string; tokenId: string }, amount: bigint) =>
  `${wallet} ${asset.kind}:${asset.address}:${asset.tokenId} ${amount}`;
const acts = (tx: WalletTransaction) => tx.acts.map((act) => `${act.id} ${act.type} ${act.sentFrom} ${act.contractAddress}`);
const transfers = (tx: WalletTransaction) =>
  tx.transfers.map(
    (transfer) =>
      `${transfer.actId} ${transfer.asset!.kind}:${transfer.asset!.address}:${transfer.asset!.tokenId} ${transfer.amount} ${transfer.sender}>${transfer.recipient}`,
  );

describe('decodeBlock transactions', () => {
  test.each<{ name: string; sent: Sent; acts: string[]; transfers: string[]; nets: string[] }>([
    {
      name: 'plain ETH transfer',
      sent: { from: alice, to: bob, value: 5n },
      acts: [`1 transfer ${alice} `],
      transfers: [`1 1:: 5 ${alice}>${bob}`],
      nets: [net(alice, native, -5n - fee), net(bob, native, 5n)],
    },
    {
      name: 'a failed transaction moves nothing but its fee',
      sent: { from: alice, to: usdc, value: 5n, failed: true, logs: [erc20Transfer(usdc, alice, bob, 1n)], calls: [frame(usdc, bob, 2n)] },
      acts: [`1 execute ${alice} ${usdc}`],
      transfers: [],
      nets: [net(alice, native, -fee)],
    },
    {
      name: 'internal transfers of a reverted frame are undone, the rest stand',
      sent: {
        from: alice,
        to: router,
        value: 9n,
        calls: [frame(router, bob, 4n, { error: 'execution reverted', calls: [frame(bob, carol, 1n)] }), frame(router, carol, 3n)],
      },
      acts: [`1 transfer ${alice} `, `2 transfer ${router} `],
      transfers: [`1 1:: 9 ${alice}>${router}`, `2 1:: 3 ${router}>${carol}`],
      nets: [net(alice, native, -9n - fee), net(router, native, 6n), net(carol, native, 3n)],
    },
    {
      name: 'ERC-20 transfer',
      sent: { from: alice, to: usdc, input: '0xa9059cbb', logs: [erc20Transfer(usdc, alice, bob, 100n)] },
      acts: [`1 transfer ${alice} ${usdc}`],
      transfers: [`1 2:${usdc}: 100 ${alice}>${bob}`],
      nets: [net(alice, native, -fee), net(alice, erc20(usdc), -100n), net(bob, erc20(usdc), 100n)],
    },
    {
      name: 'paid ERC-721 mint: the payment joins the mint',
      sent: { from: alice, to: birds, value: 10n, logs: [erc721Transfer(birds, zeroAddress, alice, 3n), erc721Transfer(birds, zeroAddress, alice, 4n)] },
      acts: [`1 mint ${alice} ${birds}`],
      transfers: [`1 3:${birds}:3 1 ${zeroAddress}>${alice}`, `1 3:${birds}:4 1 ${zeroAddress}>${alice}`, `1 1:: 10 ${alice}>${birds}`],
      nets: [
        net(alice, native, -10n - fee),
        net(alice, nft(AssetKind.ASSET_KIND_ERC721, birds, '3'), 1n),
        net(alice, nft(AssetKind.ASSET_KIND_ERC721, birds, '4'), 1n),
        net(birds, native, 10n),
      ],
    },
    {
      name: 'ERC-1155 transfer and a burn',
      sent: {
        from: alice,
        to: passes,
        logs: [
          event(passes, 'TransferSingle', { operator: alice, from: alice, to: bob, id: 2n, value: 5n }),
          event(passes, 'TransferSingle', { operator: alice, from: alice, to: zeroAddress, id: 2n, value: 1n }),
        ],
      },
      acts: [`1 burn ${alice} ${passes}`, `2 transfer ${alice} ${passes}`],
      transfers: [`1 4:${passes}:2 1 ${alice}>${zeroAddress}`, `2 4:${passes}:2 5 ${alice}>${bob}`],
      nets: [
        net(alice, native, -fee),
        net(alice, nft(AssetKind.ASSET_KIND_ERC1155, passes, '2'), -6n),
        net(bob, nft(AssetKind.ASSET_KIND_ERC1155, passes, '2'), 5n),
      ],
    },
    {
      name: 'WETH deposit: the wrapped token appears from the zero address',
      sent: { from: alice, to: weth, value: 8n, input: '0xd0e30db0', logs: [event(weth, 'Deposit', { dst: alice, wad: 8n })] },
      acts: [`1 deposit ${alice} ${weth}`],
      transfers: [`1 2:${weth}: 8 ${zeroAddress}>${alice}`, `1 1:: 8 ${alice}>${weth}`],
      nets: [net(alice, native, -8n - fee), net(alice, erc20(weth), 8n), net(weth, native, 8n)],
    },
    {
      name: 'WETH withdrawal: burnt to the zero address, ETH sent back',
      sent: { from: alice, to: weth, logs: [event(weth, 'Withdrawal', { src: alice, wad: 8n })], calls: [frame(weth, alice, 8n)] },
      acts: [`1 withdraw ${alice} ${weth}`],
      transfers: [`1 2:${weth}: 8 ${alice}>${zeroAddress}`, `1 1:: 8 ${weth}>${alice}`],
      nets: [net(alice, native, 8n - fee), net(alice, erc20(weth), -8n), net(weth, native, -8n)],
    },
    {
      name: 'Uniswap V2 swap of ETH for a token through the router',
      sent: {
        from: alice,
        to: router,
        value: 8n,
        input: '0x7ff36ab5',
        calls: [frame(router, weth, 8n)],
        logs: [
          event(weth, 'Deposit', { dst: router, wad: 8n }),
          erc20Transfer(weth, router, pair, 8n),
          erc20Transfer(usdc, pair, alice, 20n),
          event(pair, 'Sync', { reserve0: 1n, reserve1: 2n }),
          event(pair, 'Swap', { sender: router, amount0In: 0n, amount1In: 8n, amount0Out: 20n, amount1Out: 0n, to: alice }),
        ],
      },
      acts: [`1 deposit ${router} ${weth}`, `2 trade ${alice} ${pair}`],
      transfers: [
        `1 2:${weth}: 8 ${zeroAddress}>${router}`,
        `2 2:${weth}: 8 ${router}>${pair}`,
        `2 2:${usdc}: 20 ${pair}>${alice}`,
        `2 1:: 8 ${alice}>${router}`,
        `2 1:: 8 ${router}>${weth}`,
      ],
      nets: [net(alice, native, -8n - fee), net(alice, erc20(usdc), 20n), net(pair, erc20(usdc), -20n), net(pair, erc20(weth), 8n), net(weth, native, 8n)],
    },
    {
      name: 'stake, then claim in the same transaction',
      sent: {
        from: alice,
        to: staking,
        logs: [
          erc20Transfer(usdc, alice, staking, 5n),
          event(staking, 'Staked', { user: alice, amount: 5n }),
          erc20Transfer(weth, staking, alice, 1n),
          event(staking, 'RewardPaid', { user: alice, reward: 1n }),
        ],
      },
      acts: [`1 deposit ${alice} ${staking}`, `2 claim ${alice} ${staking}`],
      transfers: [`1 2:${usdc}: 5 ${alice}>${staking}`, `2 2:${weth}: 1 ${staking}>${alice}`],
      nets: [
        net(alice, native, -fee),
        net(alice, erc20(usdc), -5n),
        net(alice, erc20(weth), 1n),
        net(staking, erc20(usdc), 5n),
        net(staking, erc20(weth), -1n),
      ],
    },
    {
      name: 'approvals and revokes, each its own act',
      sent: {
        from: alice,
        to: usdc,
        logs: [
          event(usdc, 'Approval', { owner: alice, spender: router, value: 100n }),
          event(usdc, 'Approval', { owner: alice, spender: pair, value: 0n }),
          event(birds, 'ApprovalForAll', { owner: alice, operator: router, approved: true }),
          event(birds, 'ApprovalForAll', { owner: alice, operator: pair, approved: false }),
        ],
      },
      acts: [`1 approve ${alice} ${usdc}`, `2 revoke ${alice} ${usdc}`, `3 approve ${alice} ${birds}`, `4 revoke ${alice} ${birds}`],
      transfers: [],
      nets: [net(alice, native, -fee)],
    },
    {
      name: 'contract creation with value',
      sent: { from: alice, to: null, value: 3n, input: '0x6080604052', contractAddress: created, root: frame(alice, created, 3n, { type: 'CREATE' }) },
      acts: [`1 deploy ${alice} ${created}`],
      transfers: [`1 1:: 3 ${alice}>${created}`],
      nets: [net(alice, native, -3n - fee), net(created, native, 3n)],
    },
    {
      name: 'a call that moves nothing',
      sent: { from: alice, to: staking, input: '0x12345678' },
      acts: [`1 execute ${alice} ${staking}`],
      transfers: [],
      nets: [net(alice, native, -fee)],
    },
    {
      name: 'a user operation: the account sends, the bundler pays',
      sent: {
        from: bob,
        to: entryPoint,
        calls: [frame(entryPoint, account, 0n, { calls: [frame(account, carol, 4n)] })],
        logs: [
          erc20Transfer(usdc, account, carol, 6n),
          event(entryPoint, 'UserOperationEvent', {
            userOpHash: `0x${'11'.repeat(32)}`,
            sender: account,
            paymaster: pair,
            nonce: 0n,
            success: true,
            actualGasCost: 0n,
            actualGasUsed: 1n,
          }),
        ],
      },
      acts: [`1 transfer ${account} ${usdc}`],
      transfers: [`1 2:${usdc}: 6 ${account}>${carol}`, `1 1:: 4 ${account}>${carol}`],
      nets: [net(bob, native, -fee), net(account, erc20(usdc), -6n), net(account, native, -4n), net(carol, erc20(usdc), 6n), net(carol, native, 4n)],
    },
    {
      name: 'a Safe created by a factory: one deploy act naming the new Safe, which is party to it',
      sent: {
        from: alice,
        to: router,
        logs: [
          event(created, 'SafeSetup', { initiator: router, owners: [alice], threshold: 1n, initializer: zeroAddress, fallbackHandler: zeroAddress }),
          event(router, 'ProxyCreation', { proxy: created, singleton: pair }),
          event(router, 'InstanceCreation', { safe: created }),
        ],
      },
      acts: [`1 deploy ${alice} ${created}`],
      transfers: [],
      nets: [net(alice, native, -fee)],
    },
    {
      name: 'sending to oneself nets to the fee alone',
      sent: { from: alice, to: alice, value: 5n },
      acts: [`1 transfer ${alice} `],
      transfers: [`1 1:: 5 ${alice}>${alice}`],
      nets: [net(alice, native, -fee)],
    },
  ])('$name', ({ sent, acts: expectedActs, transfers: expectedTransfers, nets: expectedNets }) => {
    const { tx, changes } = decodeOne(sent);
    for (const party of tx.acts.map((entry) => entry.contractAddress).filter((address) => address === created)) expect(tx.wallets).toContain(party);
    expect(acts(tx)).toEqual(expectedActs);
    expect(transfers(tx)).toEqual(expectedTransfers);
    expect(nets(changes)).toEqual(expectedNets.sort());
  });
});

describe('decodeBlock fields', () => {
  test('the transaction message', () => {
    const { tx } = decodeOne({ from: alice, to: usdc, value: 0n, input: '0xa9059cbb00', logs: [erc20Transfer(usdc, alice, bob, 1n)] });
    expect({ ...tx, acts: [], transfers: [] }).toEqual({
      chainId: 'ethereum',
      blockNumber: '7',
      blockHash: `0x${'ab'.repeat(32)}`,
      blockTimestamp: '1700000000',
      transactionIndex: 0,
      hash: `0x${'1'.padStart(64, '0')}`,
      from: alice,
      to: usdc,
      nonce: '0',
      failed: false,
      fee: '210000',
      value: '0',
      methodId: '0xa9059cbb',
      methodName: 'transfer',
      createdContract: '',
      paymaster: '',
      acts: [],
      transfers: [],
      approvals: [],
      collectionApprovals: [],
      wallets: [usdc, bob, alice],
    });
  });

  test.each([
    { name: 'failed', sent: { from: alice, to: bob, failed: true }, field: 'failed', expected: true },
    {
      name: 'contract creation has no method and names its contract',
      sent: { from: alice, to: null, input: '0xa9059cbb' as Hex, contractAddress: created, root: frame(alice, created, 0n, { type: 'CREATE' }) },
      field: 'methodId',
      expected: '',
    },
    {
      name: 'created contract',
      sent: { from: alice, to: null, contractAddress: created, root: frame(alice, created, 0n, { type: 'CREATE' }) },
      field: 'createdContract',
      expected: created,
    },
    {
      name: 'a failed creation created nothing',
      sent: { from: alice, to: null, failed: true, contractAddress: created, root: frame(alice, created, 0n, { type: 'CREATE' }) },
      field: 'createdContract',
      expected: '',
    },
    {
      name: 'paymaster of a user operation',
      sent: {
        from: bob,
        to: entryPoint,
        logs: [
          event(entryPoint, 'UserOperationEvent', {
            userOpHash: `0x${'11'.repeat(32)}`,
            sender: account,
            paymaster: pair,
            nonce: 0n,
            success: true,
            actualGasCost: 0n,
            actualGasUsed: 1n,
          }),
        ],
      },
      field: 'paymaster',
      expected: pair,
    },
    {
      name: 'the account of a user operation is one of the wallets',
      sent: {
        from: bob,
        to: entryPoint,
        logs: [
          event(entryPoint, 'UserOperationEvent', {
            userOpHash: `0x${'11'.repeat(32)}`,
            sender: account,
            paymaster: zeroAddress,
            nonce: 0n,
            success: false,
            actualGasCost: 0n,
            actualGasUsed: 1n,
          }),
        ],
      },
      field: 'wallets',
      expected: [entryPoint, account, bob],
    },
    {
      name: 'approval parties are wallets, the zero address is not',
      sent: {
        from: alice,
        to: usdc,
        logs: [event(usdc, 'Approval', { owner: alice, spender: router, value: 1n }), erc20Transfer(usdc, zeroAddress, carol, 1n)],
      },
      field: 'wallets',
      expected: [usdc, router, carol, alice],
    },
  ])('$name', ({ sent, field, expected }) => {
    expect(decodeOne(sent).tx[field as keyof WalletTransaction]).toEqual(expected);
  });

  test('approvals carry their act and asset', () => {
    const nftApproval: Log = {
      address: birds,
      topics: [
        event(usdc, 'Approval', { owner: alice, spender: router, value: 0n }).topics[0]!,
        `0x${alice.slice(2).padStart(64, '0')}`,
        `0x${zeroAddress.slice(2).padStart(64, '0')}`,
        `0x${'9'.padStart(64, '0')}`,
      ],
      data: '0x',
    };
    const { tx } = decodeOne({
      from: alice,
      to: usdc,
      logs: [
        event(usdc, 'Approval', { owner: alice, spender: router, value: 7n }),
        nftApproval,
        event(birds, 'ApprovalForAll', { owner: alice, operator: router, approved: true }),
      ],
    });
    expect(tx.approvals).toEqual([
      { actId: 1, asset: erc20(usdc), owner: alice, spender: router, amount: '7' },
      { actId: 2, asset: nft(AssetKind.ASSET_KIND_ERC721, birds, '9'), owner: alice, spender: zeroAddress, amount: '0' },
    ]);
    expect(tx.collectionApprovals).toEqual([{ actId: 3, collection: birds, owner: alice, operator: router, approved: true }]);
    expect(acts(tx).map((act) => act.split(' ')[1])).toEqual(['approve', 'revoke', 'approve']);
  });

  test('a block keeps its transactions in order, with their indexes', () => {
    const { transactions, balanceChanges } = decodeBlock(bundle({ from: alice, to: bob, value: 1n }, { from: bob, to: carol, value: 1n }));
    expect(transactions.map((tx) => [tx.transactionIndex, tx.from])).toEqual([
      [0, alice],
      [1, bob],
    ]);
    expect(balanceChanges.map((change) => [change.transactionIndex, change.wallet, change.amount])).toEqual([
      [0, alice, String(-1n - fee)],
      [0, bob, '1'],
      [1, bob, String(-1n - fee)],
      [1, carol, '1'],
    ]);
  });

  test('a receipt out of step with its transaction is refused', () => {
    const broken = bundle({ from: alice, to: bob }, { from: bob, to: carol });
    broken.receipts.reverse();
    expect(() => decodeBlock(broken)).toThrow(/does not belong/);
  });
});
