import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // dist/ from the current sources first: the command-line tests run bin/exsim.js, which runs it.
    globalSetup: ['test/support/build-dist.ts'],
    // Property tests run many engine steps; keep them bounded but not flaky on a 2-core CI box.
    testTimeout: 60_000,
    pool: 'forks',
    // The JSON report lets .ci/run print a plain "N passed, N failed" closing line.
    reporters: ['default', 'json'],
    outputFile: { json: 'out/vitest-report.json' },
  },
});
