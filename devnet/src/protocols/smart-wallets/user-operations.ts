import { concat, encodeAbiParameters, encodeFunctionData, keccak256, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { accountFactoryAbi, smartAccountAbi } from './abi.js';
import type { SmartAccountInfo } from './manifest.js';

export interface UserOperation {
  sender: Address;
  nonce: bigint;
  initCode: Hex;
  callData: Hex;
  callGasLimit: bigint;
  verificationGasLimit: bigint;
  signature: Hex;
}

/** The EntryPoint's `getUserOpHash`: the operation without its signature, bound to the EntryPoint and chain. */
export function userOperationHash(op: Omit<UserOperation, 'signature'>, entryPoint: Address, chainId: number): Hex {
  const packed = keccak256(
    encodeAbiParameters(
      [{ type: 'address' }, { type: 'uint256' }, { type: 'bytes32' }, { type: 'bytes32' }, { type: 'uint256' }, { type: 'uint256' }],
      [op.sender, op.nonce, keccak256(op.initCode), keccak256(op.callData), op.callGasLimit, op.verificationGasLimit],
    ),
  );
  return keccak256(encodeAbiParameters([{ type: 'bytes32' }, { type: 'address' }, { type: 'uint256' }], [packed, entryPoint, BigInt(chainId)]));
}

/**
 * A signed operation making the account call `to` with `value` and `data`. An account not
 * deployed yet carries the factory call that deploys it (its initCode).
 */
export async function signedUserOperation(args: {
  account: SmartAccountInfo;
  accountFactory: Address;
  entryPoint: Address;
  chainId: number;
  deployed: boolean;
  nonce: bigint;
  call: { to: Address; value: bigint; data: Hex };
}): Promise<UserOperation> {
  const { account } = args;
  const initCode = args.deployed
    ? '0x'
    : concat([args.accountFactory, encodeFunctionData({ abi: accountFactoryAbi, functionName: 'createAccount', args: [account.owner, BigInt(account.salt)] })]);
  const unsigned = {
    sender: account.address,
    nonce: args.nonce,
    initCode,
    callData: encodeFunctionData({ abi: smartAccountAbi, functionName: 'execute', args: [args.call.to, args.call.value, args.call.data] }),
    callGasLimit: 200_000n,
    verificationGasLimit: 150_000n,
  };
  const hash = userOperationHash(unsigned, args.entryPoint, args.chainId);
  const signature = await privateKeyToAccount(account.ownerPrivateKey).signMessage({ message: { raw: hash } });
  return { ...unsigned, signature };
}
