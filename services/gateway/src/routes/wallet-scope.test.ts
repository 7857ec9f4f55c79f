import { Network } from '@wallet-api/core/proto/common';
import { ChainFamily, type Chain } from '@wallet-api/core/proto/reference_data';
import { ApiError, apiError } from '../http/api-error.js';
import { checkSubscriptionChains, selectChains, whenTracked } from './wallet-scope.js';

const flags = {
  supportsTrading: true,
  supportsSending: true,
  supportsBridge: true,
  supportsTransactions: true,
  supportsPositions: true,
  supportsNftPositions: true,
};
const chain = (id: string, fields: Partial<Chain> = {}): Chain => ({
  id,
  name: id,
  externalId: id,
  iconUrl: '',
  explorer: undefined,
  rpc: undefined,
  flags,
  nativeFungibleId: 'eth',
  wrappedNativeFungibleId: '',
  network: Network.NETWORK_MAINNET,
  family: ChainFamily.CHAIN_FAMILY_EVM,
  evmChainId: '1',
  ...fields,
});
const chains = [
  chain('ethereum'),
  chain('history-only', { flags: { ...flags, supportsPositions: false } }),
  chain('balances-only', { flags: { ...flags, supportsTransactions: false } }),
  chain('solana', { family: ChainFamily.CHAIN_FAMILY_SOLANA }),
];
const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof ApiError ? [error.status, error.detail] : error;
  }
  return undefined;
};

describe('selectChains', () => {
  test('omitted: every chain of the family reporting the capabilities', () => {
    expect(selectChains(chains, ChainFamily.CHAIN_FAMILY_EVM, undefined, ['positions'])).toEqual(['ethereum', 'balances-only']);
    expect(selectChains(chains, ChainFamily.CHAIN_FAMILY_EVM, undefined, ['transactions'])).toEqual(['ethereum', 'history-only']);
    expect(selectChains(chains, ChainFamily.CHAIN_FAMILY_EVM, undefined, ['transactions', 'positions'])).toEqual(['ethereum']);
    expect(selectChains(chains, ChainFamily.CHAIN_FAMILY_SOLANA, undefined, ['positions'])).toEqual(['solana']);
  });

  test('named: kept once each, in the order given', () => {
    expect(selectChains(chains, ChainFamily.CHAIN_FAMILY_EVM, ['balances-only', 'ethereum', 'balances-only'], ['positions'])).toEqual([
      'balances-only',
      'ethereum',
    ]);
  });

  test('named: unknown, lacking a capability, or of the other family is a 400 naming the chain', () => {
    expect(refusal(() => selectChains(chains, ChainFamily.CHAIN_FAMILY_EVM, ['ethereum', 'sepolia'], ['positions']))).toEqual([
      400,
      'parameter filter[chain_ids]: chain sepolia is not supported',
    ]);
    expect(refusal(() => selectChains(chains, ChainFamily.CHAIN_FAMILY_EVM, ['history-only'], ['positions']))).toEqual([
      400,
      'chain history-only does not support positions',
    ]);
    expect(refusal(() => selectChains(chains, ChainFamily.CHAIN_FAMILY_EVM, ['balances-only'], ['transactions', 'positions']))).toEqual([
      400,
      'chain balances-only does not support transactions',
    ]);
    expect(refusal(() => selectChains(chains, ChainFamily.CHAIN_FAMILY_EVM, ['solana'], ['positions']))).toEqual([
      400,
      'chain solana does not support this wallet address type',
    ]);
    const noNfts = [...chains, chain('no-nfts', { flags: { ...flags, supportsNftPositions: false } })];
    expect(refusal(() => selectChains(noNfts, ChainFamily.CHAIN_FAMILY_EVM, ['ethereum', 'no-nfts'], ['nft_positions']))).toEqual([
      400,
      'chain no-nfts does not support NFT positions',
    ]);
    expect(selectChains(noNfts, ChainFamily.CHAIN_FAMILY_EVM, undefined, ['nft_positions'])).toEqual(['ethereum', 'history-only', 'balances-only']);
    expect(refusal(() => selectChains(chains, ChainFamily.CHAIN_FAMILY_SOLANA, ['ethereum'], ['positions']))).toEqual([
      400,
      'chain ethereum does not support this wallet address type',
    ]);
  });
});

describe('checkSubscriptionChains', () => {
  test('chains reporting transactions and positions pass, once each in the order given; empty stays empty', () => {
    expect(checkSubscriptionChains([...chains, chain('base')], ['base', 'ethereum', 'base'])).toEqual(['base', 'ethereum']);
    expect(checkSubscriptionChains(chains, [])).toEqual([]);
  });

  test('either family is fine: a subscription watches EVM and Solana wallets alike', () => {
    expect(checkSubscriptionChains(chains, ['solana', 'ethereum'])).toEqual(['solana', 'ethereum']);
  });

  test('lacking either flag, or unknown to the network: the spec wording, naming the chain', () => {
    expect(refusal(() => checkSubscriptionChains(chains, ['ethereum', 'history-only']))).toEqual([400, 'chain history-only does not support transactions']);
    expect(refusal(() => checkSubscriptionChains(chains, ['balances-only']))).toEqual([400, 'chain balances-only does not support transactions']);
    expect(refusal(() => checkSubscriptionChains(chains, ['sepolia']))).toEqual([400, 'chain sepolia does not support transactions']);
  });
});

describe('whenTracked', () => {
  const untracked = () => Promise.reject(apiError(400, 'address 0xabc is not tracked'));

  test("a tracked address gets the read's answer, or its failure", async () => {
    await expect(whenTracked({ tracked: Promise.resolve() }, Promise.resolve('page'))).resolves.toBe('page');
    await expect(whenTracked({ tracked: Promise.resolve() }, Promise.reject(new Error('indexer down')))).rejects.toThrow('indexer down');
  });

  test("an untracked address gets the tracking 400 even when the read failed first, and the read's failure goes unreported", async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      const read = Promise.reject(new Error('indexer down'));
      const tracked = new Promise<void>((_resolve, reject) => setTimeout(() => reject(apiError(400, 'address 0xabc is not tracked')), 5));
      await expect(whenTracked({ tracked }, read)).rejects.toMatchObject({ status: 400, detail: 'address 0xabc is not tracked' });
      await expect(whenTracked({ tracked: untracked() }, Promise.resolve('page'))).rejects.toMatchObject({ status: 400 });
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', record);
    }
  });
});
