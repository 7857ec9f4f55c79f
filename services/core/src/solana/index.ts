// Solana specifics that more than one service needs: Token-2022 ScaledUiAmount display values
// (spec 2.1) for the gateway and positions.
export { parseDecimal, scaledQuantity, uiMultiplierAt } from './scaled-ui-amount.js';
