export { defaultRegistryPath, devnetRegistry, writeDevnetRegistry, type DevnetRegistry, type RegistryDapp, type RegistryToken } from './registry.js';
