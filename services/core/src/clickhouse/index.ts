export { createClickHouse, type ClickHouse, type ClickHouseOptions } from './client.js';
export { escapeString, identifier, join, literal, sql, type SqlFragment, type SqlValue } from './sql.js';
