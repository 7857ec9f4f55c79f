// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

/// A counterparty that trades any amounts the caller names, in one transaction: takes `given` from
/// the caller and pays `got` from its own balance. Lets a test make trades at exact prices
/// ("buy 1 GOV for 100 USDC"), which a pool's curve never gives.
contract PnlOtcDesk {
    function swap(IERC20 given, uint256 givenAmount, IERC20 got, uint256 gotAmount) external {
        require(given.transferFrom(msg.sender, address(this), givenAmount), "given");
        require(got.transfer(msg.sender, gotAmount), "got");
    }
}
