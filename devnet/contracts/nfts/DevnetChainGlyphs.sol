// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {ERC721Enumerable} from "@openzeppelin/contracts/token/ERC721/extensions/ERC721Enumerable.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Base64} from "@openzeppelin/contracts/utils/Base64.sol";
import {Strings} from "@openzeppelin/contracts/utils/Strings.sol";

/// Paid-mint collection whose metadata and image live entirely on chain: tokenURI is a
/// `data:application/json;base64` document whose image is a `data:image/svg+xml;base64` SVG.
/// Enumerable so that generators find a wallet's tokens without scanning every id.
contract DevnetChainGlyphs is ERC721Enumerable, Ownable {
    uint256 public constant MAX_PER_MINT = 5;
    uint256 public immutable mintPrice;

    constructor(uint256 mintPrice_, address owner_) ERC721("Chain Glyphs", "GLYPH") Ownable(owner_) {
        mintPrice = mintPrice_;
    }

    /// Token ids run 1..totalSupply (nothing is burnt).
    function mint(uint256 quantity) external payable {
        require(quantity > 0 && quantity <= MAX_PER_MINT, "quantity");
        require(msg.value == mintPrice * quantity, "price");
        uint256 last = totalSupply();
        for (uint256 i = 1; i <= quantity; i++) {
            _safeMint(msg.sender, last + i);
        }
    }

    function withdraw() external onlyOwner {
        payable(owner()).transfer(address(this).balance);
    }

    function tokenURI(uint256 tokenId) public view override returns (string memory) {
        _requireOwned(tokenId);
        uint256 seed = uint256(keccak256(abi.encodePacked(tokenId)));
        string memory id = Strings.toString(tokenId);
        string memory hue = Strings.toString(seed % 360);
        string memory accent = Strings.toString((seed >> 16) % 360);
        string memory radius = Strings.toString(20 + ((seed >> 32) % 60));
        string memory svg = string.concat(
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200"><rect width="200" height="200" fill="hsl(',
            hue,
            ',70%,40%)"/><circle cx="100" cy="95" r="',
            radius,
            '" fill="hsl(',
            accent,
            ',80%,70%)"/><text x="100" y="188" text-anchor="middle" font-family="monospace" font-size="14" fill="#fff">#',
            id,
            "</text></svg>"
        );
        string memory json = string.concat(
            '{"name":"Chain Glyph #',
            id,
            '","description":"A glyph drawn entirely on chain.","image":"data:image/svg+xml;base64,',
            Base64.encode(bytes(svg)),
            '","attributes":[{"trait_type":"Hue","value":',
            hue,
            '},{"trait_type":"Radius","value":',
            radius,
            "}]}"
        );
        return string.concat("data:application/json;base64,", Base64.encode(bytes(json)));
    }
}
