// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Clones} from "@openzeppelin/contracts/proxy/Clones.sol";
import {Create2} from "@openzeppelin/contracts/utils/Create2.sol";
import {DevnetSafe} from "./DevnetSafe.sol";

/// Creates safes at CREATE2 addresses fixed by their setup and a salt nonce, either as minimal
/// proxies of one singleton (as Safe's proxy factory does) or as full instances. It also keeps a
/// registry of every safe it created, which the devnet reads instead of scanning logs.
contract DevnetSafeFactory {
    address public immutable singleton;
    address[] public safes;

    event ProxyCreation(address indexed proxy, address singleton);
    event InstanceCreation(address indexed safe);

    constructor(address singleton_) {
        singleton = singleton_;
    }

    function createProxy(address[] calldata owners, uint256 threshold, bool requireSuccess, uint256 saltNonce)
        external
        returns (address proxy)
    {
        proxy = Clones.cloneDeterministic(singleton, _salt(owners, threshold, requireSuccess, saltNonce));
        DevnetSafe(payable(proxy)).setup(owners, threshold, requireSuccess);
        safes.push(proxy);
        emit ProxyCreation(proxy, singleton);
    }

    function createInstance(address[] calldata owners, uint256 threshold, bool requireSuccess, uint256 saltNonce)
        external
        returns (address safe)
    {
        safe = address(new DevnetSafe{salt: _salt(owners, threshold, requireSuccess, saltNonce)}(owners, threshold, requireSuccess));
        safes.push(safe);
        emit InstanceCreation(safe);
    }

    function proxyAddress(address[] calldata owners, uint256 threshold, bool requireSuccess, uint256 saltNonce)
        external
        view
        returns (address)
    {
        return Clones.predictDeterministicAddress(singleton, _salt(owners, threshold, requireSuccess, saltNonce));
    }

    function instanceAddress(address[] calldata owners, uint256 threshold, bool requireSuccess, uint256 saltNonce)
        external
        view
        returns (address)
    {
        bytes memory init = abi.encodePacked(type(DevnetSafe).creationCode, abi.encode(owners, threshold, requireSuccess));
        return Create2.computeAddress(_salt(owners, threshold, requireSuccess, saltNonce), keccak256(init));
    }

    function safeCount() external view returns (uint256) {
        return safes.length;
    }

    function _salt(address[] calldata owners, uint256 threshold, bool requireSuccess, uint256 saltNonce) private pure returns (bytes32) {
        return keccak256(abi.encode(owners, threshold, requireSuccess, saltNonce));
    }
}
