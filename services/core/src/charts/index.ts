// Spec 4.1's chart periods, shared by the gateway (which caches a chart until its points move)
// and the chart service (which computes them).
export * from './chart-window.js';
