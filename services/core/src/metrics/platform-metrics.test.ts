import { statementKind } from './platform-metrics.js';

describe('statementKind', () => {
  test.each([
    ['SELECT COUNT(*) FROM "public"."organization"', 'select'],
    ['  insert into t values (1)', 'insert'],
    ['\nUPDATE t SET a = 1', 'update'],
    ['WITH x AS (SELECT 1) SELECT * FROM x', 'with'],
    ['BEGIN', 'begin'],
    ['COMMIT', 'commit'],
    ['VACUUM t', 'other'],
    ['', 'other'],
    ['-- comment\nSELECT 1', 'other'],
  ])('%j is %s', (statement, kind) => {
    expect(statementKind(statement)).toBe(kind);
  });
});
