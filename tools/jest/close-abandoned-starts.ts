// jest setupFilesAfterEnv: closes what a spec file's harness started after its hook had given up
// (see @itp/testing/abandoned-starts). A root afterAll runs after every describe block's afterAll.
import { afterAll } from '@jest/globals';
import { closeAbandonedStarts } from '@itp/testing/abandoned-starts';

afterAll(async () => {
  const closed = await closeAbandonedStarts();
  if (closed > 0) {
    console.warn(`closed ${closed} start(s) that finished after their hook had given up`);
  }
}, 60_000);
