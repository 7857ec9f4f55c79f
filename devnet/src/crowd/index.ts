export { buildCrowd, type BuildCrowdOptions } from './build.js';
export { crowdAddress, planCrowd, type CrowdPlanOptions, type CrowdWallet } from './plan.js';
