// The arithmetic lives in core, shared with the positions service; this path stays for the devnet's own imports.
export { protocolFeeLiquidity, v2BurnAmounts, type V2BurnInput } from '@wallet-api/core/protocol-math';
