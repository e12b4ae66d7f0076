// Preloaded (node --require) into each process the CLI benchmark times (process-timer.ts): at
// exit it writes its own CPU time, user + system in microseconds from getrusage, to fd 3, a pipe
// the timer reads. Precise where Linux's /proc counts children in 10 ms ticks, and loaded by the
// CommonJS loader every Node start has already set up, so it costs `node -e 0` and `weft` alike.
// Plain CommonJS, without require(), so nothing else is loaded.
const { writeSync } = process.getBuiltinModule('node:fs');

process.on('exit', () => {
  const usage = process.resourceUsage();
  try {
    writeSync(3, `${usage.userCPUTime + usage.systemCPUTime}\n`);
  } catch {
    // No fd 3: the process was not started by the timer; nothing to report to.
  }
});
