import { parseAbi } from 'viem';

/** ERC-721 with the enumerable extension, which every collection here except spam has. */
export const erc721Abi = parseAbi([
  'function balanceOf(address owner) view returns (uint256)',
  'function ownerOf(uint256 tokenId) view returns (address)',
  'function totalSupply() view returns (uint256)',
  'function tokenOfOwnerByIndex(address owner, uint256 index) view returns (uint256)',
  'function tokenURI(uint256 tokenId) view returns (string)',
  'function getApproved(uint256 tokenId) view returns (address)',
  'function isApprovedForAll(address owner, address operator) view returns (bool)',
  'function approve(address to, uint256 tokenId)',
  'function setApprovalForAll(address operator, bool approved)',
  'function safeTransferFrom(address from, address to, uint256 tokenId)',
  'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
]);

export const erc1155Abi = parseAbi([
  'function balanceOf(address owner, uint256 id) view returns (uint256)',
  'function editionCount() view returns (uint256)',
  'function uri(uint256 id) view returns (string)',
  'function isApprovedForAll(address owner, address operator) view returns (bool)',
  'function setApprovalForAll(address operator, bool approved)',
  'function mint(uint256 id, uint256 amount)',
  'function safeTransferFrom(address from, address to, uint256 id, uint256 amount, bytes data)',
  'function safeBatchTransferFrom(address from, address to, uint256[] ids, uint256[] amounts, bytes data)',
  'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
  'event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)',
]);

/** `mint` of the onchain-art (payable) and hosted collections, `airdrop` of the spam one. */
export const nftMintAbi = parseAbi(['function mint(uint256 quantity) payable', 'function airdrop(address[] recipients)']);

export const marketAbi = parseAbi([
  'function list(address nft, uint256 tokenId, uint256 price) returns (uint256)',
  'function buy(uint256 listingId) payable',
  'function listingCount() view returns (uint256)',
  'function listings(uint256 listingId) view returns (address seller, address nft, uint256 tokenId, uint256 price, bool active)',
  'function activeListingOf(address nft, uint256 tokenId) view returns (uint256)',
  'event Listed(uint256 indexed listingId, address indexed seller, address indexed nft, uint256 tokenId, uint256 price)',
  'event Sold(uint256 indexed listingId, address indexed buyer, address indexed seller, address nft, uint256 tokenId, uint256 price)',
]);
