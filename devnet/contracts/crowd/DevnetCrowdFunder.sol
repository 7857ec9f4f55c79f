// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// Runs a batch of calls, each with its own ether, in one transaction: how the devnet's crowd gets
/// its ether, tokens and positions in a few blocks. Any failing call reverts the whole batch with
/// that call's own revert data, so the builder can say why.
contract DevnetCrowdFunder {
    struct Call {
        address target;
        uint256 value;
        bytes callData;
    }

    function run(Call[] calldata calls) external payable {
        for (uint256 i = 0; i < calls.length; i++) {
            (bool success, bytes memory data) = calls[i].target.call{value: calls[i].value}(calls[i].callData);
            if (!success) {
                assembly {
                    revert(add(data, 32), mload(data))
                }
            }
        }
    }
}
