/**
 * `node --cpu-prof` for a process whose command line is not ours (Node 20 refuses --cpu-prof in
 * NODE_OPTIONS): `NODE_OPTIONS="--import <this file>" CPU_PROF_FILE=<out.cpuprofile>`. Starts the
 * V8 sampling profiler through node:inspector at load and writes the profile when the process
 * exits (a service's graceful shutdown ends in process.exit: the main-thread session answers
 * synchronously, so the write happens inside the 'exit' handler). Used by hop-ab.ts.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

const file = process.env.CPU_PROF_FILE;
if (file) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 1000 });
  session.post('Profiler.start');
  process.on('exit', () => {
    session.post('Profiler.stop', (err, result) => {
      if (!err) writeFileSync(file, JSON.stringify(result.profile));
    });
  });
}
