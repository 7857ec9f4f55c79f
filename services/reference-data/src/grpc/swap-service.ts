import { invalidArgument, registration, type ServiceRegistration } from '@wallet-api/core/grpc';
import { SwapService, type SwapAmount as SwapAmountMessage, type SwapQuote as SwapQuoteMessage, type SwapServer } from '@wallet-api/core/proto/swap';
import { getAddress, isAddress } from 'viem';
import { currencies, isCurrency } from '../prices/currencies.js';
import type { SwapAmount, SwapQuote, SwapQuoter } from '../swap/swap-quoter.js';

const amount = (value: SwapAmount): SwapAmountMessage => ({ amount: value.amount.toString(), decimals: value.decimals });

export function toSwapQuoteMessage(quote: SwapQuote): SwapQuoteMessage {
  return {
    inputAmount: amount(quote.inputAmount),
    outputAmount: amount(quote.outputAmount),
    outputAmountAfterFees: amount(quote.outputAmountAfterFees),
    outputAmountMin: amount(quote.outputAmountMin),
    ...(quote.priceImpactPercent === undefined ? {} : { priceImpactPercent: quote.priceImpactPercent }),
    slippagePercent: quote.slippagePercent,
    feeProtocolPercent: quote.protocolFeePercent,
    gasQuantity: amount(quote.gas.quantity),
    ...(quote.gas.value === undefined ? {} : { gasValue: quote.gas.value }),
    liquiditySource: quote.liquiditySource,
    route: quote.route.map((pool) => pool.toLowerCase()),
    assetSpender: quote.assetSpender?.toLowerCase() ?? '',
    enoughBalance: quote.enoughBalance,
    enoughAllowance: quote.enoughAllowance,
    transaction: quote.transaction && {
      chainId: quote.transaction.chainId,
      from: quote.transaction.from.toLowerCase(),
      to: quote.transaction.to.toLowerCase(),
      data: quote.transaction.data,
      value: quote.transaction.value.toString(),
      gas: quote.transaction.gas.toString(),
    },
    estimatedSeconds: quote.estimatedSeconds,
  };
}

const wallet = (value: string, parameter: string) => {
  if (!isAddress(value, { strict: false })) throw invalidArgument(`${parameter}: must be an EVM address (0x and 40 hexadecimal digits)`);
  return getAddress(value);
};

/** walletapi.swap.Swap over the swap quoter; parameters are named as the gateway's query names them. */
export function swapService(quoter: SwapQuoter): ServiceRegistration {
  return registration<SwapServer>('walletapi.swap.Swap', SwapService, {
    async getSwapQuotes(request) {
      const currency = request.currency.trim().toLowerCase() || 'usd';
      if (!isCurrency(currency)) throw invalidArgument(`currency: must be one of ${currencies.join(', ')}`);
      const from = wallet(request.from, 'from');
      const { blockNumber, quotes } = await quoter.quote({
        chainId: request.chainId,
        inputFungibleId: request.inputFungibleId,
        outputFungibleId: request.outputFungibleId,
        inputAmount: request.inputAmount,
        from,
        to: request.to === '' ? from : wallet(request.to, 'to'),
        slippagePercent: request.slippagePercent,
        currency,
      });
      return { blockNumber: blockNumber.toString(), quotes: quotes.map(toSwapQuoteMessage) };
    },
    async listSwapFungibles(request) {
      return { fungibleIds: await quoter.swappableFungibles(request.chainId) };
    },
  });
}
