export { createChainSession, createDevnetClient, defaultGas, type ChainSession, type DevnetClient, type MinedBlock, type TxRequest } from './session.js';
export { anvilBinary, devnetBlockGasLimit, startAnvil, type AnvilInstance, type AnvilOptions } from './anvil.js';
