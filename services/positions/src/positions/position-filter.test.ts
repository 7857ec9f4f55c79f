import { PositionsFilter, TrashFilter, type Position } from '@wallet-api/core/proto/positions';
import type { TokenInfo } from '@wallet-api/core/proto/reference_data';
import { selectPositions, wantsProtocolRows, wantsWalletRows, type PositionSelection } from './position-filter.js';

const lpToken = '0x00000000000000000000000000000000000000a1';
const vaultShare = '0x00000000000000000000000000000000000000a2';
const usdc = '0x00000000000000000000000000000000000000b1';
const spam = '0x00000000000000000000000000000000000000c1';

function token(address: string, fungibleId = address.slice(-2)): TokenInfo {
  return { chainId: 'ethereum', address, interface: 2, name: '', symbol: '', decimals: 18, fungibleId, iconUrl: '', verified: false, isSpam: false };
}

function row(id: string, fields: Partial<Position>): Position {
  return {
    id,
    chainId: 'ethereum',
    name: id,
    positionType: 'wallet',
    amount: '1',
    token: token(usdc, 'usdc'),
    protocol: '',
    protocolModule: '',
    poolAddress: '',
    groupId: '',
    parentId: '',
    dapp: undefined,
    isTrash: false,
    displayable: true,
    updatedAt: '0',
    updatedAtBlock: '0',
    ...fields,
  };
}

const uniswap = { id: 'uniswap-v2', name: 'Uniswap V2', description: '', iconUrl: '', url: '', managePositionsUrl: '', externalLinks: [] };
const vaults = { ...uniswap, id: 'devnet-vaults', name: 'Vaults' };

const walletRows = [
  row('usdc', {}),
  row('lp', { token: token(lpToken) }),
  row('share', { token: token(vaultShare) }),
  row('share-on-base', { chainId: 'base', token: { ...token(vaultShare), chainId: 'base' } }),
  row('spam', { token: token(spam), isTrash: true, displayable: false }),
];
const protocolRows = [
  row('lp-usdc', { positionType: 'deposit', dapp: uniswap, fungibleReceipt: { token: token(lpToken), amount: '5' } }),
  row('vault-usdc', { positionType: 'deposit', dapp: vaults, fungibleReceipt: { token: token(vaultShare), amount: '7' } }),
  row('loan', { positionType: 'loan', token: token(usdc, 'usdc') }),
];

const selection = (fields: Partial<PositionSelection>): PositionSelection => ({
  positions: PositionsFilter.POSITIONS_FILTER_ONLY_SIMPLE,
  positionTypes: [],
  fungibleIds: [],
  dappIds: [],
  trash: TrashFilter.TRASH_FILTER_ONLY_NON_TRASH,
  ...fields,
});
const ids = (positions: Position[]) => positions.map((position) => position.id).sort();

test.each([
  ['only_simple: the wallet rows that are not trash', selection({}), ['lp', 'share', 'share-on-base', 'usdc']],
  ['only_complex: the protocol rows', selection({ positions: PositionsFilter.POSITIONS_FILTER_ONLY_COMPLEX }), ['loan', 'lp-usdc', 'vault-usdc']],
  [
    'no_filter: receipts a returned protocol row carries leave their wallet rows out, on that chain only',
    selection({ positions: PositionsFilter.POSITIONS_FILTER_NO_FILTER }),
    ['loan', 'lp-usdc', 'share-on-base', 'usdc', 'vault-usdc'],
  ],
  [
    'no_filter: a receipt whose protocol row another filter removed keeps its wallet row',
    selection({ positions: PositionsFilter.POSITIONS_FILTER_NO_FILTER, dappIds: ['uniswap-v2'] }),
    ['lp-usdc'],
  ],
  [
    'no_filter without deposit types: no returned row carries the receipts, so their wallet rows stay',
    selection({ positions: PositionsFilter.POSITIONS_FILTER_NO_FILTER, positionTypes: ['wallet', 'loan'] }),
    ['loan', 'lp', 'share', 'share-on-base', 'usdc'],
  ],
  ['position types', selection({ positions: PositionsFilter.POSITIONS_FILTER_NO_FILTER, positionTypes: ['loan'] }), ['loan']],
  [
    'fungible ids',
    selection({ positions: PositionsFilter.POSITIONS_FILTER_NO_FILTER, fungibleIds: ['usdc'] }),
    ['lp-usdc', 'loan', 'usdc', 'vault-usdc'].sort(),
  ],
  [
    'dapp ids keep only positions of those dapps',
    selection({ positions: PositionsFilter.POSITIONS_FILTER_NO_FILTER, dappIds: ['devnet-vaults'] }),
    ['vault-usdc'],
  ],
  ['only_trash', selection({ trash: TrashFilter.TRASH_FILTER_ONLY_TRASH }), ['spam']],
  ['trash no_filter', selection({ trash: TrashFilter.TRASH_FILTER_NO_FILTER }), ['lp', 'share', 'share-on-base', 'spam', 'usdc']],
])('%s', (_name, chosen, expected) => {
  expect(ids(selectPositions(walletRows, protocolRows, chosen))).toEqual(expected);
});

test.each([
  [selection({}), true, false],
  [selection({ positions: PositionsFilter.POSITIONS_FILTER_ONLY_COMPLEX }), false, true],
  [selection({ positions: PositionsFilter.POSITIONS_FILTER_NO_FILTER }), true, true],
  [selection({ positions: PositionsFilter.POSITIONS_FILTER_NO_FILTER, positionTypes: ['wallet'] }), true, false],
  [selection({ positions: PositionsFilter.POSITIONS_FILTER_NO_FILTER, positionTypes: ['staked'] }), false, true],
])('which rows need reading: %#', (chosen, wallet, protocol) => {
  expect([wantsWalletRows(chosen), wantsProtocolRows(chosen)]).toEqual([wallet, protocol]);
});
