#!/usr/bin/env node
'use strict';
// A reader that went away (`| head`) is no error of ours: files are written before the
// report is printed, so stop quietly with the exit code the run has so far.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e) => {
    if (e && e.code === 'EPIPE') process.exit(process.exitCode === undefined ? 0 : process.exitCode);
    throw e;
  });
}
require('../dist/src/cli/main.js')
  .main(process.argv)
  .then((code) => {
    // The run is over and reported: a signal from here on changes nothing, so it must not
    // turn the exit into a death by signal (which says "stopped before writing").
    for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => {});
    process.exitCode = code;
  })
  .catch((e) => {
    process.stderr.write(`httpd24-codemod: internal error: ${e && e.message ? e.message : e}\n`);
    if (process.argv.includes('--verbose') && e && e.stack) process.stderr.write(e.stack + '\n');
    process.exitCode = 2;
  });
