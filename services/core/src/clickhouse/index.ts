export { createClickHouse, type ClickHouse, type ClickHouseOptions } from './client.js';
export { escapeString, identifier, join, literal, migrationStatement, sql, type SqlFragment, type SqlValue } from './sql.js';
