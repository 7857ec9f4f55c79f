export * from './change-versions.js';
export * from './remembered.js';
