export { createRng, type Rng } from './rng.js';
export type { ActionContext, ActionResult, ActionSpec, DeployContext, ProtocolModule } from './types.js';
export { multicall3Address, multicall3Deployer } from './multicall3.js';
