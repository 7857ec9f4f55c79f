export * from './change-versions.js';
export * from './remembered.js';
export * from './epoch-scoped.js';
export * from './versioned-cache.js';
export * from './wallet-indexed-cache.js';
