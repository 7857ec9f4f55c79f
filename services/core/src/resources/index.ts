// The API's resource bodies (spec section 2) that more than one service renders: the gateway for
// its endpoints, the subscription service for the transactions its webhooks carry.
export * from './asset-schema.js';
export * from './fungible-directory.js';
export * from './fungible-info.js';
export * from './portfolio-totals.js';
export * from './position-order.js';
export * from './position-value.js';
export * from './quantity.js';
export * from './reference-data-batches.js';
export * from './transaction-resource.js';
export * from './transaction-schema.js';
