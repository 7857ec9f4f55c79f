export { createRng, type Rng } from './rng.js';
export type { ActionContext, ActionResult, ActionSpec, DeployContext, ProtocolModule } from './types.js';
