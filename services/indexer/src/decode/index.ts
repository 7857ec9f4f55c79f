export { decodeBlock, type DecodedBlock } from './decode-block.js';
export { operationTypes, type ActType, type OperationType } from './operation-type.js';
export type { TokenFact, TokenFacts } from './token-facts.js';
export { walletView, type ActView, type AssetType, type TransferDirection, type WalletTransactionView } from './wallet-view.js';
