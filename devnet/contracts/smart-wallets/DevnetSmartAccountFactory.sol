// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Create2} from "@openzeppelin/contracts/utils/Create2.sol";
import {DevnetSmartAccount} from "./DevnetSmartAccount.sol";

/// Deploys smart accounts at CREATE2 addresses known before deployment (counterfactual accounts);
/// the EntryPoint calls `createAccount` from an operation's initCode.
contract DevnetSmartAccountFactory {
    address public immutable entryPoint;

    constructor(address entryPoint_) {
        entryPoint = entryPoint_;
    }

    function createAccount(address owner, uint256 salt) external returns (address account) {
        account = getAddress(owner, salt);
        if (account.code.length > 0) return account;
        return address(new DevnetSmartAccount{salt: bytes32(salt)}(entryPoint, owner));
    }

    function getAddress(address owner, uint256 salt) public view returns (address) {
        bytes memory init = abi.encodePacked(type(DevnetSmartAccount).creationCode, abi.encode(entryPoint, owner));
        return Create2.computeAddress(bytes32(salt), keccak256(init));
    }
}
