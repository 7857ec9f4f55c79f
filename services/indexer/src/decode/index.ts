export { decodeBlock, type DecodedBlock } from './decode-block.js';
