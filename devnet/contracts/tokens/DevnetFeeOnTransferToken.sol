// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// Takes `feeBps` of every transfer for a treasury, so the receiver gets less than the sender sent
/// (the case that breaks naive "amount sent == amount received" bookkeeping). The treasury's own
/// transfers are exempt, as most such tokens exempt their owner.
contract DevnetFeeOnTransferToken is ERC20 {
    uint256 public immutable feeBps;
    address public immutable treasury;

    constructor(string memory name_, string memory symbol_, uint256 supply, address treasury_, uint256 feeBps_)
        ERC20(name_, symbol_)
    {
        require(feeBps_ < 10_000, "fee");
        treasury = treasury_;
        feeBps = feeBps_;
        _mint(treasury_, supply);
    }

    function _update(address from, address to, uint256 value) internal override {
        if (from == address(0) || to == address(0) || from == treasury || to == treasury) {
            super._update(from, to, value);
            return;
        }
        uint256 fee = (value * feeBps) / 10_000;
        if (fee > 0) super._update(from, treasury, fee);
        super._update(from, to, value - fee);
    }
}
