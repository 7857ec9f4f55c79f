export { createClickHouse, type ClickHouse, type ClickHouseOptions } from './client.js';
export { orphanedBlockRows, orphanedBlocks } from './block-states.js';
export { escapeString, identifier, inList, join, literal, migrationStatement, sql, type SqlFragment, type SqlValue } from './sql.js';
export { createWriteBehind, type Accepted, type WriteBehind, type WriteBehindOptions } from './write-behind.js';
