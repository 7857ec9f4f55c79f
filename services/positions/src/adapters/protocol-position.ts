import { z } from 'zod';

/** The spec's position types of protocol positions (`wallet` is for plain balances). */
export type ProtocolPositionType = 'deposit' | 'loan' | 'locked' | 'staked' | 'reward' | 'investment';

export type ProtocolKind = 'uniswap-v2' | 'uniswap-v3' | 'erc4626' | 'staking' | 'lending';

export type ProtocolReceipt = { kind: 'fungible'; token: string; amount: bigint } | { kind: 'nft'; contract: string; tokenId: string };

/** One asset a wallet has in a protocol, as an adapter read it from the chain. */
export interface ProtocolPosition {
  protocol: ProtocolKind;
  type: ProtocolPositionType;
  /** Lowercase token the amount is in. */
  token: string;
  /** Base units; what the wallet would get out (or owes, for a loan) at the block read. */
  amount: bigint;
  /**
   * Which instance of the protocol the position is in, unique per wallet with `type` and `token`:
   * the pair, `<position manager>:<token id>`, the vault, the staking contract (with `:<lock id>`
   * for a lock), the lending pool.
   */
  key: string;
  /** The contract whose dapp the position belongs to. */
  contract: string;
  /** Pool or vault address, usable in the chart pool filters; '' for other kinds. */
  poolAddress: string;
  /** Positions of one liquidity position share it; '' when the position stands alone. */
  group: string;
  /** The `type` of the position (same key and token) this one belongs to; '' when none. */
  parentType: ProtocolPositionType | '';
  receipt?: ProtocolReceipt;
}

const address = z.string().regex(/^0x[0-9a-f]{40}$/);
const amount = z
  .string()
  .regex(/^-?\d+$/)
  .transform((value) => BigInt(value));

const storedPosition = z.object({
  protocol: z.enum(['uniswap-v2', 'uniswap-v3', 'erc4626', 'staking', 'lending']),
  type: z.enum(['deposit', 'loan', 'locked', 'staked', 'reward', 'investment']),
  token: address,
  amount,
  key: z.string(),
  contract: address,
  poolAddress: z.string(),
  group: z.string(),
  parentType: z.enum(['', 'deposit', 'loan', 'locked', 'staked', 'reward', 'investment']),
  receipt: z
    .discriminatedUnion('kind', [
      z.object({ kind: z.literal('fungible'), token: address, amount }),
      z.object({ kind: z.literal('nft'), contract: address, tokenId: z.string().regex(/^\d+$/) }),
    ])
    .optional(),
});

/** JSON for the snapshot table: amounts as decimal strings. */
export function serializeProtocolPositions(positions: readonly ProtocolPosition[]): unknown[] {
  return positions.map((position) => ({
    ...position,
    amount: position.amount.toString(),
    ...(position.receipt?.kind === 'fungible' ? { receipt: { ...position.receipt, amount: position.receipt.amount.toString() } } : {}),
  }));
}

export function parseProtocolPositions(json: unknown): ProtocolPosition[] {
  return z.array(storedPosition).parse(json);
}
