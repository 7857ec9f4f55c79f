export {
  chainWorld,
  chainWorldSchema,
  defaultManifestPath,
  manifestSchema,
  readManifest,
  type ChainWorld,
  type Manifest,
  type ReorgRecord,
  type WalletRecord,
} from './manifest.js';
