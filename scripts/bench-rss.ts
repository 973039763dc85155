// Preloaded into CLI runs by bench.ts (--require): at exit, writes the process's peak RSS (KB)
// and CPU time (µs) to the file H24_BENCH_RSS names.
import { writeFileSync } from 'node:fs';

process.on('exit', () => {
  const f = process.env.H24_BENCH_RSS;
  const u = process.resourceUsage();
  if (f) writeFileSync(f, JSON.stringify({ maxRSS: u.maxRSS, cpu: u.userCPUTime + u.systemCPUTime }));
});
