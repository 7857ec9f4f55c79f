import { AssetKind, type WalletTransaction } from '@wallet-api/core/proto/events';
import { walletRows } from './wallet-rows.js';

const alice = `0x${'a'.repeat(40)}`;
const bob = `0x${'b'.repeat(40)}`;
const router = `0x${'c'.repeat(40)}`;
const usdc = `0x${'d'.repeat(40)}`;
const spam = `0x${'e'.repeat(40)}`;
const nft = `0x${'f'.repeat(40)}`;

function tx(fields: Partial<WalletTransaction>): WalletTransaction {
  return {
    chainId: 'ethereum',
    blockNumber: '1',
    blockHash: '0x01',
    blockTimestamp: '1',
    transactionIndex: 0,
    hash: '0x02',
    from: alice,
    to: router,
    nonce: '0',
    failed: false,
    fee: '0',
    value: '0',
    methodId: '',
    methodName: '',
    createdContract: '',
    paymaster: '',
    acts: [],
    transfers: [],
    approvals: [],
    collectionApprovals: [],
    wallets: [],
    ...fields,
  };
}

const facts = {
  lookup: (_chainId: string, address: string) =>
    address === spam ? { verified: false, isSpam: true } : address === usdc ? { verified: true, isSpam: false } : undefined,
};

describe('walletRows', () => {
  test('one row per wallet with its own reading, token contracts and counterparties', () => {
    const swap = tx({
      acts: [{ id: 1, type: 'trade', sentFrom: alice, contractAddress: router }],
      transfers: [
        { actId: 1, asset: { kind: AssetKind.ASSET_KIND_NATIVE, address: '', tokenId: '' }, amount: '10', sender: alice, recipient: router },
        { actId: 1, asset: { kind: AssetKind.ASSET_KIND_ERC20, address: usdc, tokenId: '' }, amount: '20', sender: router, recipient: alice },
      ],
      wallets: [alice, router],
    });
    expect(walletRows(swap, facts)).toEqual([
      { address: alice, operationType: 'trade', isTrash: false, assetTypes: ['fungible'], tokenAddresses: ['', usdc], counterparties: [router] },
      { address: router, operationType: 'trade', isTrash: false, assetTypes: ['fungible'], tokenAddresses: ['', usdc], counterparties: [alice] },
    ]);
  });

  test('an unsolicited spam airdrop is trash for the receiver only; NFTs count as nft', () => {
    const airdrop = tx({
      from: bob,
      to: spam,
      acts: [
        { id: 1, type: 'transfer', sentFrom: bob, contractAddress: spam },
        { id: 2, type: 'transfer', sentFrom: bob, contractAddress: nft },
      ],
      transfers: [
        { actId: 1, asset: { kind: AssetKind.ASSET_KIND_ERC20, address: spam, tokenId: '' }, amount: '1', sender: bob, recipient: alice },
        { actId: 2, asset: { kind: AssetKind.ASSET_KIND_ERC721, address: nft, tokenId: '9' }, amount: '1', sender: bob, recipient: alice },
      ],
      wallets: [alice, bob],
    });
    const [forAlice, forBob] = walletRows(airdrop, facts);
    expect(forAlice).toMatchObject({ operationType: 'receive', assetTypes: ['fungible', 'nft'], tokenAddresses: [spam, nft].sort() });
    expect(forBob).toMatchObject({ operationType: 'send', isTrash: false });
  });

  test('approvals name the approved token for the owner only', () => {
    const approve = tx({
      to: usdc,
      acts: [{ id: 1, type: 'approve', sentFrom: alice, contractAddress: usdc }],
      approvals: [{ actId: 1, asset: { kind: AssetKind.ASSET_KIND_ERC20, address: usdc, tokenId: '' }, owner: alice, spender: router, amount: '5' }],
      wallets: [alice, router],
    });
    const [forAlice, forRouter] = walletRows(approve, facts);
    expect(forAlice).toMatchObject({ operationType: 'approve', tokenAddresses: [usdc], counterparties: [router, usdc].sort() });
    expect(forRouter).toMatchObject({ tokenAddresses: [] });
  });
});
