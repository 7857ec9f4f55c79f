// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";

/// Fixed-price ERC-721 market: the seller keeps the token and approves the market, the buyer pays
/// ETH in the buy transaction, which moves the token to the buyer and the ETH to the seller.
contract DevnetNftMarket is ReentrancyGuard {
    struct Listing {
        address seller;
        address nft;
        uint256 tokenId;
        uint256 price;
        bool active;
    }

    /// Listing ids run 1..listingCount.
    uint256 public listingCount;
    mapping(uint256 => Listing) public listings;
    /// The active listing of a token, 0 if none.
    mapping(address => mapping(uint256 => uint256)) public activeListingOf;

    event Listed(uint256 indexed listingId, address indexed seller, address indexed nft, uint256 tokenId, uint256 price);
    event Sold(uint256 indexed listingId, address indexed buyer, address indexed seller, address nft, uint256 tokenId, uint256 price);

    function list(address nft, uint256 tokenId, uint256 price) external returns (uint256 listingId) {
        require(price > 0, "price");
        IERC721 token = IERC721(nft);
        require(token.ownerOf(tokenId) == msg.sender, "owner");
        require(
            token.getApproved(tokenId) == address(this) || token.isApprovedForAll(msg.sender, address(this)),
            "approval"
        );
        // A token that changed hands outside the market may still carry its former owner's listing.
        uint256 stale = activeListingOf[nft][tokenId];
        if (stale != 0) listings[stale].active = false;
        listingId = ++listingCount;
        listings[listingId] = Listing(msg.sender, nft, tokenId, price, true);
        activeListingOf[nft][tokenId] = listingId;
        emit Listed(listingId, msg.sender, nft, tokenId, price);
    }

    function buy(uint256 listingId) external payable nonReentrant {
        Listing storage listing = listings[listingId];
        require(listing.active, "inactive");
        require(msg.value == listing.price, "price");
        listing.active = false;
        delete activeListingOf[listing.nft][listing.tokenId];
        IERC721(listing.nft).safeTransferFrom(listing.seller, msg.sender, listing.tokenId);
        (bool paid,) = listing.seller.call{value: msg.value}("");
        require(paid, "payment");
        emit Sold(listingId, msg.sender, listing.seller, listing.nft, listing.tokenId, msg.value);
    }
}
