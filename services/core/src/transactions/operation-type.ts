/** The operation types of decisions.md ("Transaction types"), in the order that file lists them. */
export const operationTypes = [
  'approve',
  'bid',
  'burn',
  'claim',
  'delegate',
  'deploy',
  'deposit',
  'execute',
  'mint',
  'receive',
  'revoke',
  'revoke_delegation',
  'send',
  'trade',
  'withdraw',
] as const;

export type OperationType = (typeof operationTypes)[number];

/**
 * What the decoder stores in `Act.type`: an operation type, or `transfer` for a plain movement
 * whose reading (`send` or `receive`) depends on the wallet looking at it.
 */
export type ActType = Exclude<OperationType, 'send' | 'receive'> | 'transfer';

/**
 * How much an act says about a transaction, most telling first: a swap that also wraps ETH is a
 * trade, a deposit that mints a share token is a deposit, and a call that moved nothing of the
 * wallet's is an execute. Types on one line tie; the earlier act of the transaction wins a tie.
 */
const precedence: readonly (readonly OperationType[])[] = [
  ['trade'],
  ['deposit', 'withdraw'],
  ['claim'],
  ['mint', 'burn'],
  ['deploy'],
  ['bid'],
  ['send', 'receive'],
  ['approve', 'revoke'],
  ['delegate', 'revoke_delegation'],
  ['execute'],
];

const rankOf = new Map<OperationType, number>(precedence.flatMap((tier, rank) => tier.map((type) => [type, rank] as const)));

/** Lower is more significant. */
export function operationRank(type: OperationType): number {
  return rankOf.get(type)!;
}
