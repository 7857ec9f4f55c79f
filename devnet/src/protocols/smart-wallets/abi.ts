import { parseAbi } from 'viem';

// Typed fragments of the contracts in contracts/smart-wallets for reads and calldata; deployments
// use the compiled artifacts.

export const safeAbi = parseAbi([
  'function getOwners() view returns (address[])',
  'function threshold() view returns (uint256)',
  'function nonce() view returns (uint256)',
  'function requireSuccess() view returns (bool)',
  'function approvedHashes(address owner, bytes32 hash) view returns (uint256)',
  'function getTransactionHash(address to, uint256 value, bytes data, uint8 operation, uint256 nonce) view returns (bytes32)',
  'function approveHash(bytes32 hashToApprove)',
  'function execTransaction(address to, uint256 value, bytes data, uint8 operation, bytes signatures) payable returns (bool)',
  'event SafeSetup(address indexed initiator, address[] owners, uint256 threshold, address initializer, address fallbackHandler)',
  'event ApproveHash(bytes32 indexed approvedHash, address indexed owner)',
  'event ExecutionSuccess(bytes32 txHash, uint256 payment)',
  'event ExecutionFailure(bytes32 txHash, uint256 payment)',
  'event SafeReceived(address indexed sender, uint256 value)',
  'error InvalidSignatures()',
  'error ExecutionReverted(bytes32 txHash)',
]);

export const safeFactoryAbi = parseAbi([
  'function safes(uint256) view returns (address)',
  'function safeCount() view returns (uint256)',
  'function createProxy(address[] owners, uint256 threshold, bool requireSuccess, uint256 saltNonce) returns (address)',
  'function createInstance(address[] owners, uint256 threshold, bool requireSuccess, uint256 saltNonce) returns (address)',
  'function proxyAddress(address[] owners, uint256 threshold, bool requireSuccess, uint256 saltNonce) view returns (address)',
  'function instanceAddress(address[] owners, uint256 threshold, bool requireSuccess, uint256 saltNonce) view returns (address)',
  'event ProxyCreation(address indexed proxy, address singleton)',
  'event InstanceCreation(address indexed safe)',
]);

const userOperation =
  'struct UserOperation { address sender; uint256 nonce; bytes initCode; bytes callData; uint256 callGasLimit; uint256 verificationGasLimit; bytes signature; }';

export const entryPointAbi = parseAbi([
  userOperation,
  'function getNonce(address sender) view returns (uint256)',
  'function getUserOpHash(UserOperation op) view returns (bytes32)',
  'function handleOps(UserOperation[] ops)',
  'event UserOperationEvent(bytes32 indexed userOpHash, address indexed sender, address indexed paymaster, uint256 nonce, bool success, uint256 actualGasCost, uint256 actualGasUsed)',
  'event AccountDeployed(bytes32 indexed userOpHash, address indexed sender, address factory, address paymaster)',
  'event UserOperationRevertReason(bytes32 indexed userOpHash, address indexed sender, uint256 nonce, bytes revertReason)',
  'event BeforeExecution()',
  'error FailedOp(uint256 opIndex, string reason)',
]);

export const smartAccountAbi = parseAbi([
  'function owner() view returns (address)',
  'function execute(address dest, uint256 value, bytes func)',
  'error NotEntryPoint(address caller)',
]);

export const accountFactoryAbi = parseAbi([
  'function createAccount(address owner, uint256 salt) returns (address)',
  'function getAddress(address owner, uint256 salt) view returns (address)',
]);
