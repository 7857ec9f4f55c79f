/**
 * Multicall3's address on every production chain (the same deterministic deployment everywhere):
 * the first contract its keyless deployer created.
 */
export const multicall3Address = '0xcA11bde05977b3631167028862bE2a173976CA11';

/** The account whose nonce-0 deployment put Multicall3 at that address on every chain. */
export const multicall3Deployer = '0x05f32B3cC3888453ff71B01135B34FF8e41263F2';
