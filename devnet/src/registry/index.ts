export { defaultRegistryPath, devnetMinLiquidityUsd, devnetRegistry, writeDevnetRegistry } from './registry.js';
export type { DevnetRegistry, RegistryDapp, RegistryPricing, RegistryProtocols, RegistryToken } from './registry-shape.js';
