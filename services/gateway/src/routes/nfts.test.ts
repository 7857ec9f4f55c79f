import { Network } from '@wallet-api/core/proto/common';
import { ChainFamily, type Chain } from '@wallet-api/core/proto/reference_data';
import { ApiError } from '../http/api-error.js';
import { checkReferences } from './nfts.js';

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
  chain('base'),
  chain('no-nfts', { flags: { ...flags, supportsNftPositions: false } }),
  chain('solana', { family: ChainFamily.CHAIN_FAMILY_SOLANA }),
];
const contract = '0x00000000000000000000000000000000000000c1';
const ref = (chainId: string, tokenId = '1') => ({ chainId, contractAddress: contract, tokenId });

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof ApiError ? [error.status, error.title, error.detail] : error;
  }
  return undefined;
};

describe('checkReferences', () => {
  test('references on chains with NFT positions pass, once each in the order given', () => {
    expect(checkReferences(chains, [ref('base', '2'), ref('ethereum'), ref('base', '2')])).toEqual([ref('base', '2'), ref('ethereum')]);
  });

  test.each([
    ['sepolia', `parameter filter[references]: chain sepolia is not supported (got "sepolia:${contract}:1")`],
    ['no-nfts', `parameter filter[references]: chain no-nfts does not support NFT positions (got "no-nfts:${contract}:1")`],
    ['solana', `parameter filter[references]: chain solana does not support NFT positions (got "solana:${contract}:1")`],
  ])('a reference on %s is a 400 naming it', (chainId, detail) => {
    expect(refusal(() => checkReferences(chains, [ref('ethereum'), ref(chainId)]))).toEqual([400, 'Parameter is malformed', detail]);
  });
});
