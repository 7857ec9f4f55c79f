import { shapesWorld } from './world-cache.js';

describe('world cache key', () => {
  test.each([
    ['src/protocols/tokens/deploy.ts', true],
    ['contracts/tokens/DevnetERC20.sol', true],
    ['src/world/build-chain-world.ts', true],
    ['src/registry-notes/extra.ts', true],
    ['src/world/rng.test.ts', false],
    ['src/cli/main.ts', false],
    ['src/registry/registry.ts', false],
    ['contracts/README.md', false],
  ])('%s shapes the world: %s', (path, expected) => {
    expect(shapesWorld(path)).toBe(expected);
  });
});
