import { AssetKind, WalletLegs, WalletTransaction, type Transfer } from '../generated/proto/events.js';
import { walletLegs } from './wallet-legs.js';

const wallet = '0x00000000000000000000000000000000000000aa';
const pool = '0x00000000000000000000000000000000000000cc';
const token = '0x00000000000000000000000000000000000000d1';
const nft = '0x00000000000000000000000000000000000000e1';

const erc20 = (address: string, amount: string, sender: string, recipient: string): Transfer => ({
  actId: 1,
  asset: { kind: AssetKind.ASSET_KIND_ERC20, address, tokenId: '' },
  amount,
  sender,
  recipient,
});
const native = (amount: string, sender: string, recipient: string): Transfer => ({
  actId: 1,
  asset: { kind: AssetKind.ASSET_KIND_NATIVE, address: '', tokenId: '' },
  amount,
  sender,
  recipient,
});
const transaction = (transfers: Transfer[], fields: Partial<WalletTransaction> = {}) =>
  WalletTransaction.fromPartial({
    chainId: 'ethereum',
    blockNumber: '9',
    blockHash: '0xbb',
    blockTimestamp: '1700000000',
    transactionIndex: 3,
    hash: '0xhh',
    from: wallet,
    to: pool,
    fee: '21000',
    transfers,
    ...fields,
  });

describe('walletLegs', () => {
  test('nets each asset in the order first moved, leaves out what nets to zero, and keeps the identity and fee', () => {
    const legs = walletLegs(
      transaction([
        erc20(token, '500', wallet, pool),
        native('7', pool, wallet),
        erc20(token, '200', pool, wallet),
        native('7', wallet, pool),
        native('3', pool, wallet),
      ]),
      wallet,
    );
    expect(legs).toEqual({
      chainId: 'ethereum',
      blockNumber: '9',
      blockHash: '0xbb',
      blockTimestamp: '1700000000',
      transactionIndex: 3,
      feePaid: '21000',
      legs: [
        { asset: token, amount: '-300' },
        { asset: '', amount: '3' },
      ],
      nftReceived: false,
      nftSent: false,
    });
  });

  test('compares wallets whatever their case and stores token contracts canonical', () => {
    const shouting = wallet.toUpperCase().replace('0X', '0x');
    const legs = walletLegs(transaction([erc20(token.toUpperCase().replace('0X', '0x'), '5', pool, shouting)], { from: shouting }), wallet);
    expect(legs.legs).toEqual([{ asset: token, amount: '5' }]);
    expect(legs.feePaid).toBe('21000');
  });

  test('a fee paid by another sender or a paymaster is not the wallet’s; a failed transaction moved only its fee', () => {
    expect(walletLegs(transaction([native('1', pool, wallet)], { from: pool }), wallet).feePaid).toBe('');
    expect(walletLegs(transaction([native('1', pool, wallet)], { paymaster: pool }), wallet).feePaid).toBe('');
    expect(walletLegs(transaction([erc20(token, '5', wallet, pool)], { failed: true }), wallet)).toMatchObject({ feePaid: '21000', legs: [] });
  });

  test('NFTs only mark that one came or went', () => {
    const sale = walletLegs(
      transaction([
        { actId: 1, asset: { kind: AssetKind.ASSET_KIND_ERC721, address: nft, tokenId: '7' }, amount: '1', sender: wallet, recipient: pool },
        native('9', pool, wallet),
      ]),
      wallet,
    );
    expect(sale).toMatchObject({ legs: [{ asset: '', amount: '9' }], nftReceived: false, nftSent: true });
  });

  test("a swap's legs take a fraction of its stored transaction", () => {
    const swap = transaction([erc20(token, '557000000000000000', pool, wallet), native('12345678901234567', wallet, pool)], {
      blockHash: `0x${'b'.repeat(64)}`,
      hash: `0x${'c'.repeat(64)}`,
      methodId: '0x38ed1739',
      methodName: 'swapExactTokensForTokens',
      wallets: [pool, wallet],
      acts: [{ id: 1, type: 'trade', sentFrom: wallet, contractAddress: pool }],
    });
    expect(WalletLegs.encode(walletLegs(swap, wallet)).finish().length).toBeLessThan(WalletTransaction.encode(swap).finish().length / 2.5);
  });
});
