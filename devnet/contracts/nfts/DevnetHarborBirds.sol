// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {ERC721Enumerable} from "@openzeppelin/contracts/token/ERC721/extensions/ERC721Enumerable.sol";
import {Strings} from "@openzeppelin/contracts/utils/Strings.sol";

/// Free-mint collection with off-chain metadata: tokenURI is `<baseURI><id>.json` on an http
/// server, the way most collections point at IPFS gateways or their own APIs.
contract DevnetHarborBirds is ERC721Enumerable {
    uint256 public constant MAX_PER_MINT = 3;
    string private _base;

    constructor(string memory baseURI_) ERC721("Harbor Birds", "BIRD") {
        _base = baseURI_;
    }

    /// Token ids run 1..totalSupply (nothing is burnt).
    function mint(uint256 quantity) external {
        require(quantity > 0 && quantity <= MAX_PER_MINT, "quantity");
        uint256 last = totalSupply();
        for (uint256 i = 1; i <= quantity; i++) {
            _safeMint(msg.sender, last + i);
        }
    }

    function tokenURI(uint256 tokenId) public view override returns (string memory) {
        _requireOwned(tokenId);
        return string.concat(_base, Strings.toString(tokenId), ".json");
    }
}
