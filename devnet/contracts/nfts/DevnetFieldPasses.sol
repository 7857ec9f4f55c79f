// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC1155} from "@openzeppelin/contracts/token/ERC1155/ERC1155.sol";
import {Strings} from "@openzeppelin/contracts/utils/Strings.sol";

/// Multi-edition ERC-1155 with ids 1..editionCount, free to mint, metadata at `<baseURI><id>.json`
/// (the decimal id: wallets must not rely on the `{id}` substitution being used).
contract DevnetFieldPasses is ERC1155 {
    uint256 public constant MAX_PER_MINT = 10;
    string public constant name = "Field Passes";
    string public constant symbol = "PASS";
    uint256 public immutable editionCount;
    string private _base;

    constructor(string memory baseURI_, uint256 editionCount_) ERC1155("") {
        _base = baseURI_;
        editionCount = editionCount_;
    }

    function mint(uint256 id, uint256 amount) external {
        require(id >= 1 && id <= editionCount, "edition");
        require(amount > 0 && amount <= MAX_PER_MINT, "amount");
        _mint(msg.sender, id, amount, "");
    }

    function uri(uint256 id) public view override returns (string memory) {
        return string.concat(_base, Strings.toString(id), ".json");
    }
}
