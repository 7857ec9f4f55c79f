import { AssetKind } from '@wallet-api/core/proto/events';
import { TokenInterface, type Dapp, type TokenInfo } from '@wallet-api/core/proto/reference_data';
import type { UnsignedAction } from '../store/unsigned-action-store.js';
import { swapActionLookups, swapActionRecord, swapActionTransaction } from './swap-action-record.js';
import { unsignedActionRecord } from './unsigned-snapshot-source.js';

const wallet = `0x${'aa'.repeat(20)}`;
const router = `0x${'bb'.repeat(20)}`;
const usdc = `0x${'cc'.repeat(20)}`;
const createdAt = new Date('2026-11-27T10:00:00.500Z');
const usdcInfo: TokenInfo = {
  chainId: 'ethereum',
  address: usdc,
  interface: TokenInterface.TOKEN_INTERFACE_ERC20,
  name: 'USD Coin',
  symbol: 'USDC',
  decimals: 6,
  fungibleId: 'usdc',
  iconUrl: '',
  verified: true,
  isSpam: false,
};
const uniswap: Dapp = { id: 'uniswap', name: 'Uniswap', description: '', iconUrl: '', url: '', managePositionsUrl: '', externalLinks: [] };
const tables = {
  tokens: { info: (chainId: string, address: string) => (chainId === 'ethereum' && address === usdc ? usdcInfo : undefined) },
  dapps: { dapp: (chainId: string, address: string) => (chainId === 'ethereum' && address === router ? uniswap : undefined) },
};

// ETH in, USDC out through a router's exactInputSingle (selector 0x414bf389).
const tx = swapActionTransaction({
  chainId: 'ethereum',
  wallet,
  router,
  data: '0x414bf389000000',
  value: '500000000000000000',
  inputToken: '',
  outputToken: usdc,
  inputAmount: '500000000000000000',
  outputAmountMin: '1234567',
  createdAt,
});

describe('swapActionRecord', () => {
  const record = swapActionRecord(tx, tables);

  test("reads as the wallet's trade at the router: input out, at least the minimum output in", () => {
    expect(record).toMatchObject({
      chainId: 'ethereum',
      address: wallet,
      sentFrom: wallet,
      sentTo: router,
      operationType: 'trade',
      isTrash: false,
      hash: '',
      blockNumber: '0',
      minedAt: '1795773600',
    });
    expect(record.transfers).toEqual([
      {
        actId: 1,
        direction: 'out',
        token: { asset: { kind: AssetKind.ASSET_KIND_NATIVE, address: '', tokenId: '' }, info: undefined },
        amount: '500000000000000000',
        sender: wallet,
        recipient: router,
      },
      {
        actId: 1,
        direction: 'in',
        token: { asset: { kind: AssetKind.ASSET_KIND_ERC20, address: usdc, tokenId: '' }, info: usdcInfo },
        amount: '1234567',
        sender: router,
        recipient: wallet,
      },
    ]);
    expect(record.acts).toEqual([{ id: 1, type: 'trade', sentFrom: wallet, feeKind: '', contractAddress: router, dapp: uniswap }]);
    expect(record.application).toEqual({ contractAddress: router, dapp: uniswap, methodId: '0x414bf389', methodName: 'exactInputSingle' });
  });

  test('its lookups name both tokens (the native one as empty) and the router', () => {
    expect(swapActionLookups(tx)).toEqual({
      tokens: [
        { chainId: 'ethereum', address: '' },
        { chainId: 'ethereum', address: usdc },
      ],
      contracts: [{ chainId: 'ethereum', address: router }],
    });
  });

  test('listed as an unmined snapshot under the action id, dated at creation', () => {
    const action: UnsignedAction = {
      id: 'act_1',
      organizationId: '00000000-0000-0000-0000-000000000001',
      wallet,
      chainId: 'ethereum',
      kind: 'swap',
      transaction: { chainId: 'ethereum', from: wallet, to: router, data: tx.methodId, value: tx.value, gas: '200000', serialized: '' },
      record,
      createdAt,
      availableAt: createdAt,
      expiresAt: new Date(createdAt.getTime() + 600_000),
    };
    expect(unsignedActionRecord(action)).toEqual({
      ...record,
      cursor: { minedAtMs: '1795773600500', blockNumber: '0', transactionIndex: 0, chainId: 'ethereum' },
      blockNumber: '0',
      blockHash: '',
      minedAt: '1795773600',
      actionId: 'act_1',
      availableAtMs: '1795773600500',
      expiresAtMs: '1795774200500',
    });
  });
});
