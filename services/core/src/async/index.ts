export { mapConcurrently } from './map-concurrently.js';
