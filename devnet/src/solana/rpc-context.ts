// What every RPC method sees: the ledger and the version the server reports, plus the node's
// `{ context: { slot, apiVersion }, value }` wrapper for the methods that carry one.
import type { SolanaLedger } from './ledger-types.js';

/** The agave release whose runtime litesvm 1.5.0 embeds; getVersion and apiVersion report it. */
export const solanaCoreVersion = '4.3.0';
/** feature-set id a 4.3 node reported (mainnet, 2026-09). */
export const featureSet = 2_409_014_235;

export interface RpcContext {
  ledger: SolanaLedger;
}

export type RpcMethod = (params: unknown, context: RpcContext) => unknown;

/** The slot requests are answered at: the newest sealed block's (every commitment alike). */
export function contextSlot(ledger: SolanaLedger): bigint {
  return ledger.head()?.slot ?? ledger.firstSlot;
}

export function withContext(ledger: SolanaLedger, value: unknown): { context: { slot: bigint; apiVersion: string }; value: unknown } {
  return { context: { slot: contextSlot(ledger), apiVersion: solanaCoreVersion }, value };
}
