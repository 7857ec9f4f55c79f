// How a decoded transaction reads for one wallet: shared by the indexer (history rows and its
// gRPC answers, the legs it stores for replays), the subscription service (webhook bodies) and the
// pnl service (history pages).
export { zeroAddress } from './address.js';
export { historyCursor } from './history-cursor.js';
export { operationRank, operationTypes, type ActType, type OperationType } from './operation-type.js';
export type { TokenFact, TokenFacts } from './token-facts.js';
export { toTransactionRecord, transactionContracts, type WalletReading } from './transaction-record.js';
export { transactionTokens } from './transaction-tokens.js';
export { walletLegs } from './wallet-legs.js';
export { walletPart } from './wallet-part.js';
export { walletView, type ActView, type AssetType, type TransferDirection, type WalletTransactionView } from './wallet-view.js';
