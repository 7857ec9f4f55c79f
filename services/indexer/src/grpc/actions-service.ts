import { randomBytes } from 'node:crypto';
import { invalidArgument, notFound, registration, unary, type ServiceRegistration } from '@wallet-api/core/grpc';
import { ActionsService, type ActionsServer, type ActionTransaction } from '@wallet-api/core/proto/actions';
import type { RequestContext } from '@wallet-api/core/proto/common';
import type { ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import { createDappDirectory } from '@wallet-api/core/reference-data';
import { checkDismissalSignature } from '../actions/dismissal-signature.js';
import { swapActionLookups, swapActionRecord, swapActionTransaction } from '../actions/swap-action-record.js';
import { createTokenDirectory } from '../reference/token-directory.js';
import type { ActionKey, UnsignedActionStore } from '../store/unsigned-action-store.js';

export interface ActionsServiceDependencies {
  store: UnsignedActionStore;
  referenceData: ReferenceDataClient;
  /** How long a created action stays open. */
  lifetimeMs: number;
  clock?: () => Date;
}

const evmAddress = /^0x[0-9a-f]{40}$/;
const evmHex = /^0x([0-9a-f]{2})*$/;
const baseUnits = /^\d{1,78}$/;
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** 128 random bits: knowing the id is what lets a caller of the organization build the transaction. */
const newActionId = () => `act_${randomBytes(16).toString('hex')}`;

/** The organization's key for an action; a caller without an organization owns none. */
function actionKey(context: RequestContext | undefined, actionId: string): ActionKey {
  if (actionId === '') throw invalidArgument('action_id is required');
  const organizationId = context?.organizationId ?? '';
  if (!uuid.test(organizationId)) throw notFound(`action_id: no open action ${actionId}`);
  return { id: actionId, organizationId };
}

/** Token contracts of the two fungibles on the chain ('' for its native asset), lowercase. */
async function swapTokens(
  referenceData: ReferenceDataClient,
  context: RequestContext | undefined,
  chainId: string,
  fungibleIds: [string, string],
): Promise<[string, string]> {
  const { fungibles } = await unary(
    referenceData,
    referenceData.getFungibles,
    { context, currency: '', fungibleIds, implementations: [] },
    { name: 'ReferenceData/GetFungibles' },
  );
  const token = (fungibleId: string, parameter: string) => {
    const implementation = fungibles.find((fungible) => fungible.id === fungibleId)?.implementations.find((candidate) => candidate.chainId === chainId);
    if (!implementation) throw invalidArgument(`${parameter}: fungible ${fungibleId} has no implementation on ${chainId}`);
    return implementation.address.toLowerCase();
  };
  return [token(fungibleIds[0], 'input_fungible_id'), token(fungibleIds[1], 'output_fungible_id')];
}

/** The Actions gRPC service (proto/actions.proto): unsigned actions of an organization's wallets. */
export function actionsService({ store, referenceData, lifetimeMs, clock = () => new Date() }: ActionsServiceDependencies): ServiceRegistration {
  const tokens = createTokenDirectory(referenceData);
  const dapps = createDappDirectory(referenceData);
  return registration<ActionsServer>('walletapi.actions.Actions', ActionsService, {
    async createSwapAction(request) {
      const organizationId = request.context?.organizationId ?? '';
      if (!uuid.test(organizationId)) throw invalidArgument('context: an organization is required');
      const transaction: ActionTransaction | undefined = request.transaction;
      if (!evmAddress.test(request.wallet)) throw invalidArgument('wallet: must be a lowercase EVM address');
      if (request.chainId === '') throw invalidArgument('chain_id is required');
      if (
        !transaction ||
        !evmAddress.test(transaction.to) ||
        !evmHex.test(transaction.data) ||
        !baseUnits.test(transaction.value) ||
        !baseUnits.test(transaction.gas)
      ) {
        throw invalidArgument('transaction: an EVM transaction with to, data, value and gas is required');
      }
      if (!baseUnits.test(request.inputAmount)) throw invalidArgument('input_amount: must be base units');
      if (!baseUnits.test(request.outputAmountMin)) throw invalidArgument('output_amount_min: must be base units');
      const [inputToken, outputToken] = await swapTokens(referenceData, request.context, request.chainId, [request.inputFungibleId, request.outputFungibleId]);
      const createdAt = clock();
      const tx = swapActionTransaction({
        chainId: request.chainId,
        wallet: request.wallet,
        router: transaction.to,
        data: transaction.data,
        value: transaction.value,
        inputToken,
        outputToken,
        inputAmount: request.inputAmount,
        outputAmountMin: request.outputAmountMin,
        createdAt,
      });
      const lookups = swapActionLookups(tx);
      const [tokenTable, dappTable] = await Promise.all([tokens.load(lookups.tokens, request.context), dapps.load(lookups.contracts, request.context)]);
      const id = newActionId();
      await store.insert({
        id,
        organizationId,
        wallet: request.wallet,
        chainId: request.chainId,
        kind: 'swap',
        transaction: { ...transaction, chainId: request.chainId, from: request.wallet },
        record: swapActionRecord(tx, { tokens: tokenTable, dapps: dappTable }),
        createdAt,
        availableAt: createdAt,
        expiresAt: new Date(createdAt.getTime() + lifetimeMs),
      });
      return { actionId: id };
    },
    async buildAction(request) {
      const key = actionKey(request.context, request.actionId);
      const action = await store.findOpen(key, clock());
      if (!action) throw notFound(`action_id: no open action ${request.actionId}`);
      if (request.signatureApprove !== '' || request.signatureSwap !== '') {
        await store.recordHashes(key, { signatureApprove: request.signatureApprove, signatureSwap: request.signatureSwap });
      }
      return { transaction: action.transaction };
    },
    async dismissAction(request) {
      const key = actionKey(request.context, request.actionId);
      const action = await store.findOpen(key, clock());
      if (!action) throw notFound(`action_id: no open action ${request.actionId}`);
      const check = await checkDismissalSignature(action.wallet, action.id, request.signature);
      if (!check.valid) throw invalidArgument(`signature: ${check.reason}`);
      await store.dismiss(key, clock());
      return {};
    },
  });
}
