/** Jest runs TypeScript through @swc/jest as native ESM (see docs/development.md); tsc type-checks separately. */
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'es6' } },
    ],
  },
  testTimeout: 60000,
  // Integration tests start their own redis-server / etcd processes; two workers fit a 2-core machine.
  maxWorkers: 2,
  // ESM test modules (vm modules) are not freed between files: recycle a worker once it grows past
  // this after a file, or the fuzz suites late in a run can exhaust its heap.
  workerIdleMemoryLimit: '1GB',
};
