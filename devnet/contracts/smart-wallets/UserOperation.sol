// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// ERC-4337 v0.6 UserOperation without the fee and paymaster fields: on the devnet the bundler
/// pays for gas and is not reimbursed.
struct UserOperation {
    address sender;
    uint256 nonce;
    bytes initCode;
    bytes callData;
    uint256 callGasLimit;
    uint256 verificationGasLimit;
    bytes signature;
}

interface IDevnetSmartAccount {
    /// Returns 0 when the signature is the account owner's, 1 otherwise (ERC-4337's SIG_VALIDATION_FAILED).
    function validateUserOp(UserOperation calldata op, bytes32 userOpHash, uint256 missingAccountFunds)
        external
        returns (uint256 validationData);
}
