// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// A Safe-style multisig reduced to what wallet data needs: owners, a threshold, a nonce, and
/// `execTransaction` (plain calls only) authorised by owners' on-chain approvals (`approveHash`, or
/// being the sender), with signatures in Safe's layout: `threshold` 65-byte entries sorted by owner,
/// each `r` = owner, `s` = 0, `v` = 1. Events, the transaction hash (EIP-712 SafeTx) and the
/// approval rules follow Safe, so indexers treat it as one. A failed inner call emits
/// ExecutionFailure and still uses up the nonce, as Safe does with safeTxGas = 0; a safe set up with
/// `requireSuccess` reverts the whole transaction instead.
contract DevnetSafe {
    bytes32 private constant DOMAIN_SEPARATOR_TYPEHASH = keccak256("EIP712Domain(uint256 chainId,address verifyingContract)");
    bytes32 private constant SAFE_TX_TYPEHASH = keccak256("SafeTx(address to,uint256 value,bytes data,uint8 operation,uint256 nonce)");

    address[] private _owners;
    mapping(address => bool) public isOwner;
    uint256 public threshold;
    uint256 public nonce;
    bool public requireSuccess;
    mapping(address => mapping(bytes32 => uint256)) public approvedHashes;

    event SafeSetup(address indexed initiator, address[] owners, uint256 threshold, address initializer, address fallbackHandler);
    event ApproveHash(bytes32 indexed approvedHash, address indexed owner);
    event ExecutionSuccess(bytes32 txHash, uint256 payment);
    event ExecutionFailure(bytes32 txHash, uint256 payment);
    event SafeReceived(address indexed sender, uint256 value);

    error AlreadySetUp();
    error InvalidOwner(address owner);
    error InvalidThreshold(uint256 threshold);
    error NotOwner(address account);
    error OnlyCallOperation();
    error InvalidSignatures();
    error ExecutionReverted(bytes32 txHash);

    /// Without owners this is the singleton behind proxies, locked so nobody can set it up.
    constructor(address[] memory owners_, uint256 threshold_, bool requireSuccess_) {
        if (owners_.length == 0) threshold = 1;
        else _setup(owners_, threshold_, requireSuccess_);
    }

    receive() external payable {
        emit SafeReceived(msg.sender, msg.value);
    }

    /// Initialises a proxy; the factory calls it in the transaction that creates the proxy.
    function setup(address[] calldata owners_, uint256 threshold_, bool requireSuccess_) external {
        if (threshold != 0) revert AlreadySetUp();
        _setup(owners_, threshold_, requireSuccess_);
    }

    function getOwners() external view returns (address[] memory) {
        return _owners;
    }

    function domainSeparator() public view returns (bytes32) {
        return keccak256(abi.encode(DOMAIN_SEPARATOR_TYPEHASH, block.chainid, address(this)));
    }

    function getTransactionHash(address to, uint256 value, bytes calldata data, uint8 operation, uint256 nonce_)
        public
        view
        returns (bytes32)
    {
        bytes32 safeTxHash = keccak256(abi.encode(SAFE_TX_TYPEHASH, to, value, keccak256(data), operation, nonce_));
        return keccak256(abi.encodePacked(bytes1(0x19), bytes1(0x01), domainSeparator(), safeTxHash));
    }

    function approveHash(bytes32 hashToApprove) external {
        if (!isOwner[msg.sender]) revert NotOwner(msg.sender);
        approvedHashes[msg.sender][hashToApprove] = 1;
        emit ApproveHash(hashToApprove, msg.sender);
    }

    function execTransaction(address to, uint256 value, bytes calldata data, uint8 operation, bytes calldata signatures)
        external
        payable
        returns (bool success)
    {
        if (operation != 0) revert OnlyCallOperation();
        bytes32 txHash = getTransactionHash(to, value, data, operation, nonce);
        nonce++;
        checkSignatures(txHash, signatures);
        (success,) = to.call{value: value}(data);
        if (success) emit ExecutionSuccess(txHash, 0);
        else if (requireSuccess) revert ExecutionReverted(txHash);
        else emit ExecutionFailure(txHash, 0);
    }

    /// Reverts unless `signatures` holds `threshold` approvals of `dataHash` by distinct owners.
    function checkSignatures(bytes32 dataHash, bytes calldata signatures) public view {
        if (signatures.length < threshold * 65) revert InvalidSignatures();
        address lastOwner = address(0);
        for (uint256 i = 0; i < threshold; i++) {
            uint256 offset = i * 65;
            address owner = address(uint160(uint256(bytes32(signatures[offset:offset + 32]))));
            uint8 v = uint8(signatures[offset + 64]);
            if (v != 1 || owner <= lastOwner || !isOwner[owner]) revert InvalidSignatures();
            if (msg.sender != owner && approvedHashes[owner][dataHash] == 0) revert InvalidSignatures();
            lastOwner = owner;
        }
    }

    function _setup(address[] memory owners_, uint256 threshold_, bool requireSuccess_) private {
        if (threshold_ == 0 || threshold_ > owners_.length) revert InvalidThreshold(threshold_);
        for (uint256 i = 0; i < owners_.length; i++) {
            address owner = owners_[i];
            if (owner == address(0) || owner == address(this) || isOwner[owner]) revert InvalidOwner(owner);
            isOwner[owner] = true;
        }
        _owners = owners_;
        threshold = threshold_;
        requireSuccess = requireSuccess_;
        emit SafeSetup(msg.sender, owners_, threshold_, address(0), address(0));
    }
}
