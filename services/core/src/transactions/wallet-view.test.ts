import { AssetKind, type Act, type Approval, type CollectionApproval, type Transfer, type WalletTransaction } from '../generated/proto/events.js';
import { zeroAddress } from './address.js';
import type { TokenFacts } from './token-facts.js';
import { walletView } from './wallet-view.js';

const alice = '0x00000000000000000000000000000000000a11ce';
const bob = '0x0000000000000000000000000000000000000b0b';
const router = '0x00000000000000000000000000000000000000e0';
const pair = '0x00000000000000000000000000000000000000e1';
const usdc = '0x00000000000000000000000000000000000000c1';
const spam = '0x00000000000000000000000000000000000000c2';
const unlisted = '0x00000000000000000000000000000000000000c3';
const birds = '0x00000000000000000000000000000000000000c4';
const spamNft = '0x00000000000000000000000000000000000000c5';

const tokens: TokenFacts = {
  lookup: (_chainId, address) =>
    ({
      [usdc]: { verified: true, isSpam: false },
      [spam]: { verified: false, isSpam: true },
      [spamNft]: { verified: false, isSpam: true },
    })[address],
};

const native = { kind: AssetKind.ASSET_KIND_NATIVE, address: '', tokenId: '' };
const erc20 = (address: string) => ({ kind: AssetKind.ASSET_KIND_ERC20, address, tokenId: '' });
const erc721 = (address: string, tokenId: string) => ({ kind: AssetKind.ASSET_KIND_ERC721, address, tokenId });

const act = (id: number, type: string, sentFrom = alice, contractAddress = ''): Act => ({ id, type, sentFrom, contractAddress });
const move = (actId: number, asset: Transfer['asset'], amount: string, sender: string, recipient: string): Transfer => ({
  actId,
  asset,
  amount,
  sender,
  recipient,
});
const approval = (actId: number, owner: string, spender: string, amount: string): Approval => ({ actId, asset: erc20(usdc), owner, spender, amount });
const collectionApproval = (actId: number, owner: string, operator: string, approved: boolean): CollectionApproval => ({
  actId,
  collection: birds,
  owner,
  operator,
  approved,
});

function tx(fields: Partial<WalletTransaction>): WalletTransaction {
  return {
    chainId: 'ethereum',
    blockNumber: '1',
    blockHash: '0x01',
    blockTimestamp: '1',
    transactionIndex: 0,
    hash: '0xaa',
    from: alice,
    to: router,
    nonce: '0',
    failed: false,
    fee: '21000',
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

const swap = tx({
  acts: [act(1, 'deposit', router, usdc), act(2, 'trade', alice, pair)],
  transfers: [move(1, native, '5', alice, router), move(2, erc20(usdc), '9', pair, alice)],
});

describe('walletView operation type', () => {
  test.each([
    { name: 'trade outranks the wrap inside it', tx: swap, wallet: alice, expected: 'trade' },
    {
      name: 'a plain transfer reads send for its sender',
      tx: tx({ acts: [act(1, 'transfer')], transfers: [move(1, native, '5', alice, bob)] }),
      wallet: alice,
      expected: 'send',
    },
    {
      name: 'and receive for its recipient',
      tx: tx({ acts: [act(1, 'transfer')], transfers: [move(1, native, '5', alice, bob)] }),
      wallet: bob,
      expected: 'receive',
    },
    {
      name: 'sending to oneself is a send',
      tx: tx({ acts: [act(1, 'transfer')], transfers: [move(1, native, '5', alice, alice)] }),
      wallet: alice,
      expected: 'send',
    },
    {
      name: 'deposit outranks claim',
      tx: tx({ acts: [act(1, 'claim'), act(2, 'deposit')], transfers: [move(1, erc20(usdc), '1', pair, alice), move(2, erc20(usdc), '3', alice, pair)] }),
      wallet: alice,
      expected: 'deposit',
    },
    {
      name: 'the earlier of tied acts wins',
      tx: tx({ acts: [act(1, 'withdraw'), act(2, 'deposit')], transfers: [move(1, erc20(usdc), '1', pair, alice), move(2, erc20(usdc), '3', alice, pair)] }),
      wallet: alice,
      expected: 'withdraw',
    },
    {
      name: 'mint outranks the payment sent with it',
      tx: tx({ acts: [act(1, 'mint')], transfers: [move(1, native, '10', alice, birds), move(1, erc721(birds, '7'), '1', zeroAddress, alice)] }),
      wallet: alice,
      expected: 'mint',
    },
    {
      name: 'an airdrop minted to the wallet is received',
      tx: tx({
        from: bob,
        acts: [act(1, 'mint', bob, spam)],
        transfers: [move(1, erc20(spam), '5', zeroAddress, alice), move(1, erc20(spam), '5', zeroAddress, pair)],
      }),
      wallet: alice,
      expected: 'receive',
    },
    {
      name: 'and minted by the wallet itself',
      tx: tx({ acts: [act(1, 'mint', alice, spam)], transfers: [move(1, erc20(spam), '5', zeroAddress, alice)] }),
      wallet: alice,
      expected: 'mint',
    },
    {
      name: "a burn of the wallet's tokens by someone else is a send",
      tx: tx({ from: bob, acts: [act(1, 'burn', bob, usdc)], transfers: [move(1, erc20(usdc), '5', alice, zeroAddress)] }),
      wallet: alice,
      expected: 'send',
    },
    { name: 'approve', tx: tx({ acts: [act(1, 'approve')], approvals: [approval(1, alice, router, '100')] }), wallet: alice, expected: 'approve' },
    {
      name: 'the spender of an approval sees it too',
      tx: tx({ acts: [act(1, 'approve')], approvals: [approval(1, alice, router, '100')] }),
      wallet: router,
      expected: 'approve',
    },
    {
      name: 'revoke of a collection approval',
      tx: tx({ acts: [act(1, 'revoke')], collectionApprovals: [collectionApproval(1, alice, router, false)] }),
      wallet: alice,
      expected: 'revoke',
    },
    { name: 'deploy', tx: tx({ to: '', createdContract: pair, acts: [act(1, 'deploy', alice, pair)] }), wallet: alice, expected: 'deploy' },
    { name: 'a call that moved nothing', tx: tx({ acts: [act(1, 'execute', alice, router)] }), wallet: alice, expected: 'execute' },
    { name: 'a failed transaction', tx: tx({ failed: true }), wallet: alice, expected: 'execute' },
    {
      name: "paying for acts that are all someone else's",
      tx: tx({ acts: [act(1, 'transfer', bob)], transfers: [move(1, native, '5', bob, pair)] }),
      wallet: alice,
      expected: 'execute',
    },
    {
      name: 'an act the wallet took part in only by receiving',
      tx: tx({
        from: bob,
        acts: [act(1, 'transfer', bob), act(2, 'trade', bob, pair)],
        transfers: [move(1, native, '5', bob, alice), move(2, erc20(usdc), '1', pair, bob)],
      }),
      wallet: alice,
      expected: 'receive',
    },
  ])('$name', ({ tx, wallet, expected }) => {
    expect(walletView(tx, wallet, tokens).operationType).toBe(expected);
  });
});

describe('walletView trash', () => {
  const airdrop = (token: Transfer['asset'], amount = '1000') =>
    tx({ from: bob, to: token!.address, acts: [act(1, 'transfer', bob)], transfers: [move(1, token, amount, bob, alice)] });

  test.each([
    { name: 'spam token received unsolicited', tx: airdrop(erc20(spam)), expected: true },
    { name: 'unknown token received unsolicited', tx: airdrop(erc20(unlisted)), expected: true },
    { name: 'verified token received unsolicited', tx: airdrop(erc20(usdc)), expected: false },
    { name: 'native coin received unsolicited', tx: airdrop(native), expected: false },
    { name: 'spam NFT', tx: airdrop(erc721(spamNft, '1'), '1'), expected: true },
    { name: 'an NFT of a collection reference data does not know', tx: airdrop(erc721(birds, '1'), '1'), expected: false },
    { name: 'a zero-value transfer of a verified token', tx: airdrop(erc20(usdc), '0'), expected: true },
    {
      name: 'zero-value transferFrom out of the wallet (address poisoning)',
      tx: tx({ from: bob, to: usdc, acts: [act(1, 'transfer', alice)], transfers: [move(1, erc20(usdc), '0', alice, bob)] }),
      expected: true,
    },
    {
      name: "spam received in a swap that took the wallet's tokens through an allowance",
      tx: tx({ from: bob, acts: [act(1, 'trade', bob)], transfers: [move(1, erc20(usdc), '5', alice, pair), move(1, erc20(spam), '5', pair, alice)] }),
      expected: false,
    },
    {
      name: 'spam the wallet sent itself for',
      tx: tx({ acts: [act(1, 'transfer', bob)], transfers: [move(1, erc20(spam), '5', bob, alice)] }),
      expected: false,
    },
    {
      name: 'nothing moved for the wallet',
      tx: tx({ from: bob, acts: [act(1, 'approve', alice)], approvals: [approval(1, alice, bob, '0')] }),
      expected: false,
    },
  ])('$name', ({ tx, expected }) => {
    expect(walletView(tx, alice, tokens).isTrash).toBe(expected);
  });
});

describe('walletView reading', () => {
  test('transfers of the wallet with directions, asset types and counterparties', () => {
    const view = walletView(
      tx({
        acts: [act(1, 'transfer'), act(2, 'transfer', bob)],
        transfers: [
          move(1, erc721(birds, '3'), '1', alice, bob),
          move(1, native, '4', alice, alice),
          move(2, erc20(usdc), '6', bob, pair),
          move(2, erc20(usdc), '2', zeroAddress, alice),
        ],
        approvals: [approval(1, alice, pair, '1')],
      }),
      alice,
      tokens,
    );
    expect(view.transfers.map((transfer) => transfer.direction)).toEqual(['out', 'self', 'in']);
    expect(view.assetTypes).toEqual(['fungible', 'nft']);
    expect(view.counterparties).toEqual([router, pair, bob]);
    expect(view.acts).toEqual([
      { id: 1, type: 'send', sentFrom: alice, contractAddress: '' },
      { id: 2, type: 'receive', sentFrom: bob, contractAddress: '' },
    ]);
  });
});
