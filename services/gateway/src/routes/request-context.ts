import { Network, type RequestContext } from '@wallet-api/core/proto/common';
import type { Organization } from '../auth/authenticate.js';

/** The caller as services see it: organization, its entitlements, and mainnet or testnet. */
export function toRequestContext(organization: Organization, xEnv: 'testnet' | undefined): RequestContext {
  return {
    organizationId: organization.id,
    roles: organization.roles,
    addons: organization.addons,
    network: xEnv === 'testnet' ? Network.NETWORK_TESTNET : Network.NETWORK_MAINNET,
  };
}
