// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {UserOperation, IDevnetSmartAccount} from "./UserOperation.sol";

/// A minimal ERC-4337 EntryPoint: validates every operation first (deploying accounts from their
/// initCode, checking nonces and signatures; any invalid operation reverts the whole bundle with
/// FailedOp, as the real one does), then executes each operation's callData on its account. A
/// failing execution does not revert the bundle: it is reported by UserOperationEvent with
/// success = false. The events have the real EntryPoint's signatures so indexers recognise them;
/// actualGasCost is 0 (the bundler is not reimbursed) and actualGasUsed counts the execution only.
contract DevnetEntryPoint {
    mapping(address => uint256) private _nonces;

    event UserOperationEvent(
        bytes32 indexed userOpHash,
        address indexed sender,
        address indexed paymaster,
        uint256 nonce,
        bool success,
        uint256 actualGasCost,
        uint256 actualGasUsed
    );
    event AccountDeployed(bytes32 indexed userOpHash, address indexed sender, address factory, address paymaster);
    event UserOperationRevertReason(bytes32 indexed userOpHash, address indexed sender, uint256 nonce, bytes revertReason);
    event BeforeExecution();

    error FailedOp(uint256 opIndex, string reason);

    function getNonce(address sender) external view returns (uint256) {
        return _nonces[sender];
    }

    function getUserOpHash(UserOperation calldata op) public view returns (bytes32) {
        bytes32 packed = keccak256(
            abi.encode(op.sender, op.nonce, keccak256(op.initCode), keccak256(op.callData), op.callGasLimit, op.verificationGasLimit)
        );
        return keccak256(abi.encode(packed, address(this), block.chainid));
    }

    function handleOps(UserOperation[] calldata ops) external {
        bytes32[] memory hashes = new bytes32[](ops.length);
        for (uint256 i = 0; i < ops.length; i++) hashes[i] = _validate(i, ops[i]);
        emit BeforeExecution();
        for (uint256 i = 0; i < ops.length; i++) _execute(ops[i], hashes[i]);
    }

    function _validate(uint256 opIndex, UserOperation calldata op) private returns (bytes32 userOpHash) {
        userOpHash = getUserOpHash(op);
        if (op.initCode.length > 0) {
            if (op.sender.code.length > 0) revert FailedOp(opIndex, "AA10 sender already constructed");
            address factory = address(bytes20(op.initCode[:20]));
            (bool created, bytes memory result) = factory.call(op.initCode[20:]);
            if (!created || result.length < 32 || abi.decode(result, (address)) != op.sender) {
                revert FailedOp(opIndex, "AA14 initCode must return sender");
            }
            emit AccountDeployed(userOpHash, op.sender, factory, address(0));
        }
        if (op.sender.code.length == 0) revert FailedOp(opIndex, "AA20 account not deployed");
        if (op.nonce != _nonces[op.sender]++) revert FailedOp(opIndex, "AA25 invalid account nonce");
        uint256 validationData =
            IDevnetSmartAccount(op.sender).validateUserOp{gas: op.verificationGasLimit}(op, userOpHash, 0);
        if (validationData != 0) revert FailedOp(opIndex, "AA24 signature error");
    }

    function _execute(UserOperation calldata op, bytes32 userOpHash) private {
        uint256 gasBefore = gasleft();
        (bool success, bytes memory result) = op.sender.call{gas: op.callGasLimit}(op.callData);
        if (!success) emit UserOperationRevertReason(userOpHash, op.sender, op.nonce, result);
        emit UserOperationEvent(userOpHash, op.sender, address(0), op.nonce, success, 0, gasBefore - gasleft());
    }
}
