import { invalidArgument, registration, type ServiceRegistration } from '@wallet-api/core/grpc';
import { Network } from '@wallet-api/core/proto/common';
import { ChainFamily } from '@wallet-api/core/proto/reference_data';
import { GasPricesService, GasType, type GasPrice, type GasPricesServer, type Eip1559Speed } from '@wallet-api/core/proto/gas';
import type { ChainRegistry } from '../chains/chain-registry.js';
import type { GasTracker } from '../gas/gas-tracker.js';
import type { Eip1559Speed as SpeedPrices, GasSnapshot } from '../gas/gas-snapshot.js';

const speed = (prices: SpeedPrices): Eip1559Speed => ({
  priorityFee: prices.priorityFee.toString(),
  maxFee: prices.maxFee.toString(),
  estimationSeconds: prices.estimationSeconds,
});

export function toGasPrice(snapshot: GasSnapshot): GasPrice {
  const common = { chainId: snapshot.chainId, updatedAt: String(snapshot.updatedAt), blockNumber: snapshot.blockNumber.toString() };
  if (snapshot.type === 'classic') {
    const { slow, standard, fast, rapid } = snapshot.prices;
    return {
      ...common,
      gasType: GasType.GAS_TYPE_CLASSIC,
      classic: { slow: slow.toString(), standard: standard.toString(), fast: fast.toString(), rapid: rapid.toString() },
    };
  }
  const { slow, standard, fast, rapid } = snapshot.speeds;
  return {
    ...common,
    gasType: GasType.GAS_TYPE_EIP1559,
    eip1559: { baseFee: snapshot.baseFee.toString(), slow: speed(slow), standard: speed(standard), fast: speed(fast), rapid: speed(rapid) },
  };
}

/**
 * GetGasPrices from the trackers' snapshots in memory: no chain is read while answering. A chain
 * is named by the request or, when none is, every EVM chain of the request's network is served.
 * `optimistic` is never served: it needs the OP-stack GasPriceOracle predeploy, which none of the
 * configured chains has (see docs/services.md).
 */
export function gasService(chains: ChainRegistry, trackers: ReadonlyMap<string, GasTracker>): ServiceRegistration {
  return registration<GasPricesServer>('walletapi.gas.GasPrices', GasPricesService, {
    async getGasPrices(request) {
      const network = request.context?.network ?? Network.NETWORK_MAINNET;
      const listed = chains.list(network);
      for (const chainId of request.chainIds) {
        const chain = listed.find((candidate) => candidate.id === chainId);
        if (!chain) throw invalidArgument(`parameter filter[chain_ids]: chain ${chainId} is not supported`);
        if (chain.family !== ChainFamily.CHAIN_FAMILY_EVM || !trackers.has(chainId))
          throw invalidArgument(`parameter filter[chain_ids]: chain ${chainId} has no gas prices`);
      }
      for (const type of request.gasTypes) {
        if (type === GasType.GAS_TYPE_UNSPECIFIED) throw invalidArgument('parameter filter[gas_types]: each value must be one of classic, eip1559, optimistic');
      }
      const chainIds = request.chainIds.length > 0 ? request.chainIds : listed.filter((chain) => trackers.has(chain.id)).map((chain) => chain.id);
      const types = new Set(request.gasTypes);
      const gasPrices = [...new Set(chainIds)]
        .map((chainId) => trackers.get(chainId)?.snapshot())
        .filter((snapshot): snapshot is GasSnapshot => snapshot !== undefined)
        .map(toGasPrice)
        .filter((price) => types.size === 0 || types.has(price.gasType));
      return { gasPrices };
    },
  });
}
