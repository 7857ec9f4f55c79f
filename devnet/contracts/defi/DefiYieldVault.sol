// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC4626} from "@openzeppelin/contracts/token/ERC20/extensions/ERC4626.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

/// ERC-4626 vault whose yield is streamed in: donated assets vest linearly over a chosen period
/// (as in sDAI or xERC4626), so the share price rises every second rather than in steps, and a
/// donation cannot be sandwiched.
contract DefiYieldVault is ERC4626 {
    using SafeERC20 for IERC20;

    /// Assets of the current stream, released linearly from `streamStart` to `streamEnd`.
    uint256 public streamAmount;
    uint64 public streamStart;
    uint64 public streamEnd;

    event YieldDonated(address indexed from, uint256 assets, uint256 streamAmount, uint256 streamEnd);

    error EmptyStream();

    constructor(IERC20 asset_, string memory name_, string memory symbol_) ERC20(name_, symbol_) ERC4626(asset_) {}

    /// Part of the vault's balance that has not vested yet and so belongs to no shareholder.
    function unvested() public view returns (uint256) {
        if (block.timestamp >= streamEnd) return 0;
        return (streamAmount * (streamEnd - block.timestamp)) / (streamEnd - streamStart);
    }

    function totalAssets() public view override returns (uint256) {
        return IERC20(asset()).balanceOf(address(this)) - unvested();
    }

    /// Adds `assets` to what is still unvested and streams the sum out over `duration` seconds from now.
    function donateYield(uint256 assets, uint256 duration) external {
        if (duration == 0 || assets == 0) revert EmptyStream();
        uint256 remaining = unvested();
        IERC20(asset()).safeTransferFrom(msg.sender, address(this), assets);
        streamAmount = remaining + assets;
        streamStart = uint64(block.timestamp);
        streamEnd = uint64(block.timestamp + duration);
        emit YieldDonated(msg.sender, assets, streamAmount, streamEnd);
    }
}
