// JSON-RPC errors with the codes and messages agave's RPC returns (jsonrpc-core's standard
// errors and `RpcCustomError`).

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }

  toJson(): Record<string, unknown> {
    return { code: this.code, message: this.message, data: this.data };
  }
}

export const parseError = () => new RpcError(-32700, 'Parse error');
export const invalidRequest = () => new RpcError(-32600, 'Invalid request');
export const methodNotFound = () => new RpcError(-32601, 'Method not found');
export const invalidParams = (message: string) => new RpcError(-32602, message);
export const internalError = () => new RpcError(-32603, 'Internal error');

export const blockCleanedUp = (slot: bigint, firstAvailableBlock: bigint) =>
  new RpcError(-32001, `Block ${slot} cleaned up, does not exist on node. First available block: ${firstAvailableBlock}`);
export const preflightFailure = (message: string, result: unknown) => new RpcError(-32002, message, result);
export const signatureVerificationFailure = () => new RpcError(-32003, 'Transaction signature verification failure');
export const blockNotAvailable = (slot: bigint) => new RpcError(-32004, `Block not available for slot ${slot}`);
export const unsupportedTransactionVersion = (version: number) =>
  new RpcError(
    -32015,
    `Transaction version (${version}) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": ${version}`,
  );
export const minContextSlotNotReached = (contextSlot: bigint) => new RpcError(-32016, 'Minimum context slot has not been reached', { contextSlot });
export const encodedBinaryTooLarge = () => new RpcError(-32600, 'Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.');
