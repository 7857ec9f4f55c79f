export * from './address-range.js';
export * from './allow-list.js';
export * from './address-pins.js';
export * from './outbound-url.js';
export * from './until-aborted.js';
