// Every server-level corpus file that can stand alone is converted and config-tested on a
// real httpd 2.4 through the CLI's own --verify (see test/helpers/corpusServer.ts for what
// "stand alone" means and how the environment is stubbed). The summary lists each failure
// with Apache's first error line; FLOOR is what passes today and only goes up.
//
//   HTTPD24_CORPUS=substring   only corpus files whose name contains it

import { rmSync } from 'node:fs';
import { corpusEntries, CORPUS, describeWithShared } from '../helpers/shared.js';
import { prepareCorpusFile, SERVER_KINDS } from '../helpers/corpusServer.js';
import { describeWithHttpd, pool } from '../helpers/httpd.js';
import { runCli } from '../helpers/tree.js';

/** Files that pass today (44 of 53 standalone ones; the other 9 lack modules or LoadModule lines the 2.2 tree got elsewhere). */
const FLOOR = 44;

interface Outcome {
  file: string;
  ok: boolean;
  /** The first error line (file:line: message), for a failure. */
  error?: string;
}

describeWithShared('corpus config test', CORPUS, () => {
  describeWithHttpd('corpus files on a real httpd 2.4', (httpd) => {
    test('converted server-level files pass httpd -t (at least FLOOR of them)', async () => {
      const t0 = Date.now();
      const only = process.env.HTTPD24_CORPUS;
      const entries = (corpusEntries() ?? []).filter((e) => SERVER_KINDS.has(e.kind) && (!only || e.file.includes(only)));
      const skipped: string[] = [];
      const outcomes = (await pool(entries, 2, async (e): Promise<Outcome | null> => {
        const prep = prepareCorpusFile(e);
        if ('skip' in prep) {
          skipped.push(`${e.file}: ${prep.skip}`);
          return null;
        }
        try {
          const args = ['--verify', '--dry-run', '--format', 'json', '--httpd', httpd.path, '--server-root', prep.serverRoot, ...prep.defines.flatMap((d) => ['--define', d]), prep.file];
          const r = await runCli(args, prep.root);
          const report = JSON.parse(r.stdout.toString('utf8')) as { findings: Array<{ severity: string; file: string; line: number; message: string }> };
          const err = report.findings.find((f) => f.severity === 'error' && f.line > 0) ?? report.findings.find((f) => f.severity === 'error');
          return { file: e.file, ok: r.code !== 2, error: err ? `${err.file}:${err.line}: ${err.message.split('\n')[0]}` : r.code === 2 ? r.stderr.split('\n')[0] : undefined };
        } finally {
          rmSync(prep.root, { recursive: true, force: true });
        }
      })).filter((o): o is Outcome => o !== null);
      const passed = outcomes.filter((o) => o.ok).length;
      // eslint-disable-next-line no-console
      console.log([
        `corpus config test on ${httpd.path} ${httpd.version}: ${passed}/${outcomes.length} standalone server-level files pass (floor ${FLOOR}); ${skipped.length} cannot stand alone; wall ${((Date.now() - t0) / 1000).toFixed(1)} s`,
        ...outcomes.filter((o) => o.ok).map((o) => `  pass ${o.file}`),
        ...outcomes.filter((o) => !o.ok).map((o) => `  fail ${o.file}\n       ${o.error}`),
        ...skipped.map((s) => `  skip ${s}`),
      ].join('\n'));
      expect(outcomes.length).toBeGreaterThan(0);
      expect(passed).toBeGreaterThanOrEqual(FLOOR);
    }, 600_000);
  });
});
