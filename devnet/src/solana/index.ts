export { createSolanaLedger, maxProcessingAge, type SolanaLedgerOptions } from './ledger.js';
export type {
  BlockReward,
  CompiledInstructionRecord,
  RecordedTransaction,
  SealedBlock,
  SentTransaction,
  SimulatedTransaction,
  SolanaLedger,
  TokenBalance,
} from './ledger-types.js';
export { handleRpcBody, rpcMethods, startSolanaRpcServer, type SolanaRpcServer, type SolanaRpcServerOptions } from './rpc-server.js';
export { featureSet, solanaCoreVersion } from './rpc-context.js';
