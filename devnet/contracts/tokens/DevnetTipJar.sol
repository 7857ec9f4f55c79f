// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// Small contract that ordinary wallets deploy themselves, so the world holds contract-creation
/// transactions (no `to`, sometimes with value) sent by externally owned accounts.
contract DevnetTipJar {
    address public immutable owner;

    event Tipped(address indexed from, uint256 amount);

    constructor() payable {
        owner = msg.sender;
    }

    receive() external payable {
        emit Tipped(msg.sender, msg.value);
    }

    function withdraw() external {
        require(msg.sender == owner, "owner");
        payable(owner).transfer(address(this).balance);
    }
}
