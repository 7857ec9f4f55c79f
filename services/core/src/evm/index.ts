// Facts shared by every EVM chain: what the services read through and the devnet deploys.
export { multicall3Address, multicall3Deployer } from './multicall3.js';
