// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {MessageHashUtils} from "@openzeppelin/contracts/utils/cryptography/MessageHashUtils.sol";
import {UserOperation, IDevnetSmartAccount} from "./UserOperation.sol";

/// An ERC-4337 account in the manner of eth-infinitism's SimpleAccount: one ECDSA owner signs the
/// userOpHash as an eth_sign message; only the EntryPoint may make it act.
contract DevnetSmartAccount is IDevnetSmartAccount {
    address public immutable entryPoint;
    address public immutable owner;

    event SimpleAccountInitialized(address indexed entryPoint, address indexed owner);

    error NotEntryPoint(address caller);

    constructor(address entryPoint_, address owner_) {
        entryPoint = entryPoint_;
        owner = owner_;
        emit SimpleAccountInitialized(entryPoint_, owner_);
    }

    receive() external payable {}

    function validateUserOp(UserOperation calldata op, bytes32 userOpHash, uint256) external view returns (uint256) {
        if (msg.sender != entryPoint) revert NotEntryPoint(msg.sender);
        (address signer, ECDSA.RecoverError recovered,) = ECDSA.tryRecover(MessageHashUtils.toEthSignedMessageHash(userOpHash), op.signature);
        return recovered == ECDSA.RecoverError.NoError && signer == owner ? 0 : 1;
    }

    /// Makes one call; a failing call reverts with the callee's reason so the EntryPoint reports it.
    function execute(address dest, uint256 value, bytes calldata func) external {
        if (msg.sender != entryPoint) revert NotEntryPoint(msg.sender);
        (bool success, bytes memory result) = dest.call{value: value}(func);
        if (!success) {
            assembly {
                revert(add(result, 32), mload(result))
            }
        }
    }
}
