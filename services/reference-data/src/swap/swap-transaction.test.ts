import { decodeFunctionData, getAddress } from 'viem';
import { swapRouterAbi, v2RouterAbi } from './swap-abi.js';
import { encodeV3Path, type SwapRoute } from './swap-route.js';
import { buildSwapCall } from './swap-transaction.js';

const at = (n: number) => getAddress(`0x${n.toString(16).padStart(40, '0')}`);
const [router, swapRouter, quoter, weth, usdc, pool, recipient] = [1, 2, 3, 4, 5, 6, 7].map(at) as [ReturnType<typeof at>, ...ReturnType<typeof at>[]];
const v2: SwapRoute = { kind: 'v2', router, tokens: [weth!, usdc!], pools: [pool!] };
const v3: SwapRoute = { kind: 'v3', swapRouter: swapRouter!, quoter: quoter!, tokens: [weth!, usdc!], fees: [500], pools: [pool!] };
const base = { amountIn: 1000n, minimumOut: 900n, recipient: recipient!, deadline: 1_800_000_000n };

describe('buildSwapCall', () => {
  test('V2 native in: swapExactETHForTokens with the amount as value', () => {
    const call = buildSwapCall({ ...base, route: v2, nativeIn: true, nativeOut: false });
    expect(call).toMatchObject({ to: router, value: 1000n });
    expect(decodeFunctionData({ abi: v2RouterAbi, data: call.data })).toEqual({
      functionName: 'swapExactETHForTokens',
      args: [900n, [weth, usdc], recipient, base.deadline],
    });
  });
  test('V2 native out: swapExactTokensForETH', () => {
    const call = buildSwapCall({ ...base, route: { ...v2, tokens: [usdc!, weth!] }, nativeIn: false, nativeOut: true });
    expect(call.value).toBe(0n);
    expect(decodeFunctionData({ abi: v2RouterAbi, data: call.data })).toEqual({
      functionName: 'swapExactTokensForETH',
      args: [1000n, 900n, [usdc, weth], recipient, base.deadline],
    });
  });
  test('V2 tokens: swapExactTokensForTokens', () => {
    const call = buildSwapCall({ ...base, route: v2, nativeIn: false, nativeOut: false });
    expect(decodeFunctionData({ abi: v2RouterAbi, data: call.data }).functionName).toBe('swapExactTokensForTokens');
  });
  test('V3 tokens: exactInput to the recipient', () => {
    const call = buildSwapCall({ ...base, route: v3, nativeIn: false, nativeOut: false });
    expect(call).toMatchObject({ to: swapRouter, value: 0n });
    expect(decodeFunctionData({ abi: swapRouterAbi, data: call.data })).toEqual({
      functionName: 'exactInput',
      args: [{ path: encodeV3Path([weth!, usdc!], [500]), recipient, deadline: base.deadline, amountIn: 1000n, amountOutMinimum: 900n }],
    });
  });
  test('V3 native in: multicall of exactInput and refundETH, with the amount as value', () => {
    const call = buildSwapCall({ ...base, route: v3, nativeIn: true, nativeOut: false });
    expect(call.value).toBe(1000n);
    const { functionName, args } = decodeFunctionData({ abi: swapRouterAbi, data: call.data });
    expect(functionName).toBe('multicall');
    const inner = (args![0] as `0x${string}`[]).map((data) => decodeFunctionData({ abi: swapRouterAbi, data }).functionName);
    expect(inner).toEqual(['exactInput', 'refundETH']);
  });
  test('V3 native out: the router receives the wrapped output and unwrapWETH9 sends at least the minimum on', () => {
    const call = buildSwapCall({ ...base, route: { ...v3, tokens: [usdc!, weth!] }, nativeIn: false, nativeOut: true });
    const [calls] = decodeFunctionData({ abi: swapRouterAbi, data: call.data }).args as [`0x${string}`[]];
    const [swap, unwrap] = calls.map((data) => decodeFunctionData({ abi: swapRouterAbi, data }));
    expect((swap!.args![0] as { recipient: string }).recipient).toBe(swapRouter);
    expect(unwrap).toEqual({ functionName: 'unwrapWETH9', args: [900n, recipient] });
  });
});
