import { AbiDecodingDataSizeTooSmallError, BaseError, ContractFunctionZeroDataError, ExecutionRevertedError, RpcRequestError } from 'viem';

/**
 * Whether an eth_call failed because the contract did (a revert, an invalid opcode, running out of
 * gas) rather than because the node could not be reached or refused the request. Only the first
 * says something about the contract.
 */
export function isRevert(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false;
  return Boolean(
    error.walk(
      (cause) =>
        cause instanceof ExecutionRevertedError ||
        (cause instanceof RpcRequestError && /revert|invalid opcode|out of gas|stack (underflow|overflow)|invalid jump/i.test(cause.details)),
    ),
  );
}

/**
 * The contract answered but not the call asked of it: it reverted, returned nothing (no such
 * function, or no code) or too little to decode. Transport failures are not this.
 */
export function answersNothing(error: unknown): boolean {
  return (
    isRevert(error) ||
    (error instanceof BaseError &&
      error.walk((cause) => cause instanceof ContractFunctionZeroDataError || cause instanceof AbiDecodingDataSizeTooSmallError) !== null)
  );
}

/** A one-line account of a failed RPC call for logs: viem's full message repeats the request body. */
export function rpcFailure(error: unknown): string {
  if (error instanceof BaseError) return [error.shortMessage, error.details].filter(Boolean).join(': ');
  return error instanceof Error ? error.message : String(error);
}
