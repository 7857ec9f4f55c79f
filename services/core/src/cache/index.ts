export * from './change-versions.js';
