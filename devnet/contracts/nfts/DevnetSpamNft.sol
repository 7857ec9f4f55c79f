// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Base64} from "@openzeppelin/contracts/utils/Base64.sol";
import {Strings} from "@openzeppelin/contracts/utils/Strings.sol";

/// Phishing-style collection minted into wallets that never asked for it, many per transaction.
contract DevnetSpamNft is ERC721, Ownable {
    /// Token ids run 1..totalSupply (nothing is burnt).
    uint256 public totalSupply;

    constructor(address owner_) ERC721(unicode"🎁 Reward Pass - claim at nft-rewards.xyz", "REWARD") Ownable(owner_) {}

    function airdrop(address[] calldata recipients) external onlyOwner {
        for (uint256 i = 0; i < recipients.length; i++) {
            _mint(recipients[i], ++totalSupply);
        }
    }

    function tokenURI(uint256 tokenId) public view override returns (string memory) {
        _requireOwned(tokenId);
        string memory svg =
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200"><rect width="200" height="200" fill="#f5c518"/><text x="100" y="105" text-anchor="middle" font-family="sans-serif" font-size="18">CLAIM 2.5 ETH</text></svg>';
        string memory json = string.concat(
            '{"name":"Reward Pass #',
            Strings.toString(tokenId),
            '","description":"You won 2.5 ETH! Claim at https://nft-rewards.xyz before it expires.","image":"data:image/svg+xml;base64,',
            Base64.encode(bytes(svg)),
            '"}'
        );
        return string.concat("data:application/json;base64,", Base64.encode(bytes(json)));
    }
}
