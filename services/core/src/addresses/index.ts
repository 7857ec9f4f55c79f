// Wallet and token addresses of both chain families, as every service validates and stores them.
export { addressFamily, canonicalWallet, evmAddressPattern, isEvmAddress, isSolanaAddress, type AddressFamily } from './wallet-address.js';
export { isBuiltInBurnAddress } from './burn-addresses.js';
