import { concat, hashTypedData, pad, type Address, type Hex } from 'viem';

export interface SafeCall {
  to: Address;
  value: bigint;
  data: Hex;
}

/** The safe's `getTransactionHash` (EIP-712 SafeTx over chain id and safe address, call operation). */
export function safeTransactionHash(safe: Address, chainId: number, call: SafeCall, nonce: bigint): Hex {
  return hashTypedData({
    domain: { chainId, verifyingContract: safe },
    types: {
      SafeTx: [
        { name: 'to', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'data', type: 'bytes' },
        { name: 'operation', type: 'uint8' },
        { name: 'nonce', type: 'uint256' },
      ],
    },
    primaryType: 'SafeTx',
    message: { ...call, operation: 0, nonce },
  });
}

/** Safe's "approved hash" signatures (r = owner, s = 0, v = 1), sorted by owner as the safe requires. */
export function approvedHashSignatures(owners: readonly Address[]): Hex {
  const sorted = [...owners].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
  return concat(sorted.map((owner) => concat([pad(owner, { size: 32 }), pad('0x', { size: 32 }), '0x01'])));
}
