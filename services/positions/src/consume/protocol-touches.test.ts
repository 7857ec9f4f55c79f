import { AssetKind, type WalletTransaction } from '@wallet-api/core/proto/events';
import { protocolTouches } from './protocol-touches.js';

const pair = '0x00000000000000000000000000000000000000a1';
const router = '0x00000000000000000000000000000000000000a2';
const wallet = '0x00000000000000000000000000000000000000b1';
const other = '0x00000000000000000000000000000000000000b2';
const contracts = new Set([pair]);

function transaction(fields: Partial<WalletTransaction>): WalletTransaction {
  return {
    chainId: 'ethereum',
    blockNumber: '42',
    blockHash: '0x01',
    blockTimestamp: '0',
    transactionIndex: 0,
    hash: '0x02',
    from: wallet,
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
    wallets: [wallet, other],
    ...fields,
  };
}

const lpTransfer = {
  actId: 0,
  asset: { kind: AssetKind.ASSET_KIND_ERC20, address: pair, tokenId: '' },
  amount: '1',
  sender: '0x0000000000000000000000000000000000000000',
  recipient: wallet,
};

test.each([
  ['a call to a protocol contract', transaction({ to: pair }), true],
  [
    'an act at one (checksummed address)',
    transaction({ acts: [{ id: 0, type: 'deposit', sentFrom: wallet, contractAddress: '0x00000000000000000000000000000000000000A1' }] }),
    true,
  ],
  ['a transfer of its token (through a router)', transaction({ transfers: [lpTransfer] }), true],
  [
    'a transfer to or from it',
    transaction({ transfers: [{ ...lpTransfer, asset: { kind: AssetKind.ASSET_KIND_NATIVE, address: '', tokenId: '' }, sender: pair }] }),
    true,
  ],
  ['an unrelated call', transaction({}), false],
  ['an approval of the protocol alone', transaction({ approvals: [{ actId: 0, asset: undefined, owner: wallet, spender: pair, amount: '1' }] }), false],
  ['a failed call to it', transaction({ to: pair, failed: true }), false],
])('%s: touched %s', (_name, tx, touched) => {
  expect(protocolTouches(tx, contracts)).toEqual(
    touched
      ? [
          { chainId: 'ethereum', wallet, blockNumber: 42n },
          { chainId: 'ethereum', wallet: other, blockNumber: 42n },
        ]
      : [],
  );
});
