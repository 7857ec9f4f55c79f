// One jest run over every workspace package. Sources are ESM TypeScript compiled by swc;
// workspace imports resolve to sources so tests never depend on a stale build.
const swc = ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'es6' } }];

export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper: {
    '^@wallet-api/core/proto/(.*)$': '<rootDir>/services/core/src/generated/proto/$1.ts',
    '^@wallet-api/core/(.*)$': '<rootDir>/services/core/src/$1/index.ts',
    '^@wallet-api/devnet/(.*)$': '<rootDir>/devnet/src/$1/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testMatch: [
    '<rootDir>/services/*/src/**/*.test.ts',
    '<rootDir>/services/*/test/**/*.test.ts',
    '<rootDir>/devnet/src/**/*.test.ts',
    '<rootDir>/devnet/test/**/*.test.ts',
    '<rootDir>/charts/*/test/**/*.test.ts',
  ],
  // *.faults.test.ts stop the shared infrastructure: scripts/test.sh runs them after every other
  // suite, on their own (and `pnpm test:faults` alone).
  testPathIgnorePatterns: ['/node_modules/', '\\.faults\\.test\\.ts$'],
  testTimeout: 60_000,
};
