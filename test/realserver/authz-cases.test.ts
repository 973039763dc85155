// Apache is the judge: every case of ../shared/authz-cases is converted with the CLI, run on
// a real httpd 2.4, and each request's status is compared with what httpd 2.2.34 answered.
// A case passes with 0 widened, 0 narrowed and a config test that succeeds; statuses on the
// same side of access control but different (401 vs 403) are reported, not failed.
//
//   HTTPD24_CASES=01,16     run only these cases (number prefixes or full names)
//   HTTPD24_CASES_DIR=dir   take the cases from another folder of the same layout
//   HTTPD24_CONVERT=0       do not run the converter (judge trees that are already 2.4)
//   HTTPD24_BIN=path        the httpd 2.4 to use (default: apache2/httpd on PATH)
//   HTTPD24_KEEP=1          keep each case's temporary server tree
//   HTTPD24_STRICT=1        hold every case to 0/0/0, the known-failing list included
//
// KNOWN_FAILING is a ratchet: the cases the tool cannot pass yet (access control is still
// being translated). A listed case must still fail, and the test says so when it starts
// passing: then take it off the list. Every other case must pass. Keep CI green without
// hiding a regression.

import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { apacheMessages } from '../../src/engine/verify.js';
import { AUTHZ_CASES } from '../helpers/shared.js';
import { canUnshare, caseNeeds, inCi, caseTable, type CaseResult, describeOutcome, describeWithHttpd, hasIpv6Loopback, pool, readCase, runAuthzCase } from '../helpers/httpd.js';

// Every case passes: keep it that way (a case that regresses fails; none may be listed here).
const KNOWN_FAILING = new Set<string>([]);

const dir = process.env.HTTPD24_CASES_DIR || AUTHZ_CASES;
const wanted = (process.env.HTTPD24_CASES ?? '').split(',').map((s) => s.trim()).filter(Boolean);
const cases = existsSync(dir)
  ? readdirSync(dir).filter((n) => /^\d+-/.test(n) && existsSync(join(dir, n, 'expected.json'))).filter((n) => wanted.length === 0 || wanted.some((w) => n === w || n.startsWith(w + '-'))).sort()
  : [];

/** Why a case cannot run on this machine, or null. */
function cannotRun(name: string): string | null {
  const needs = caseNeeds(readCase(join(dir, name)));
  if (needs.ipv6 && !hasIpv6Loopback()) return 'needs an IPv6 loopback (::1), which this machine lacks';
  if (needs.hosts && !canUnshare()) return 'needs a private /etc/hosts (unshare -m, as root), not available here';
  return null;
}

if (!existsSync(dir)) {
  describe.skip(`authz cases (skipped: ${dir} not found; put ../shared beside the project)`, () => undefined);
} else {
  describeWithHttpd('authz cases on a real httpd 2.4', (httpd) => {
    const results = new Map<string, CaseResult>();
    const failures = new Map<string, Error>();
    const runnable = cases.filter((c) => cannotRun(c) === null);

    beforeAll(async () => {
      const t0 = Date.now();
      // Servers mostly wait on the network: a few cases at a time keep 2 cores busy.
      await pool(runnable, 3, async (name) => {
        try {
          results.set(name, await runAuthzCase(httpd, join(dir, name), { convert: process.env.HTTPD24_CONVERT !== '0', keep: process.env.HTTPD24_KEEP === '1' }));
        } catch (e) {
          failures.set(name, e as Error);
        }
      });
      const ordered = runnable.filter((n) => results.has(n)).map((n) => results.get(n)!);
      const pass = ordered.filter((r) => r.configtest.ok && r.widened.length === 0 && r.narrowed.length === 0).length;
      const totals = ordered.reduce((a, r) => ({ w: a.w + r.widened.length, n: a.n + r.narrowed.length, c: a.c + (r.configtest.ok ? 0 : 1), d: a.d + r.differs.length }), { w: 0, n: 0, c: 0, d: 0 });
      const skipped = cases.filter((c) => cannotRun(c) !== null);
      // eslint-disable-next-line no-console
      console.log([
        `authz cases on ${httpd.path} ${httpd.version}${process.env.HTTPD24_CONVERT === '0' ? ' (converter not run)' : ''}`,
        caseTable(ordered),
        `${pass}/${runnable.length} cases passed; ${totals.w} widened, ${totals.n} narrowed, ${totals.c} configtest failures, ${totals.d} same-side status differences; ${failures.size} harness errors; ${skipped.length} skipped; wall ${((Date.now() - t0) / 1000).toFixed(1)} s`,
        ...skipped.map((c) => `skipped ${c}: ${cannotRun(c)}`),
      ].join('\n'));
    }, 600_000);

    for (const name of cases) {
      const why = cannotRun(name);
      if (why && inCi()) {
        test(`${name} (cannot run here, and CI must run every case)`, () => {
          throw new Error(`${name} ${why}`);
        });
        continue;
      }
      if (why) {
        test.skip(`${name} (skipped: ${why})`, () => undefined);
        continue;
      }
      const known = KNOWN_FAILING.has(name.split('-')[0]) && process.env.HTTPD24_STRICT !== '1' && dir === AUTHZ_CASES;
      test(known ? `${name} (known failing: listed in KNOWN_FAILING)` : name, () => {
        if (failures.has(name)) throw failures.get(name)!;
        const r = results.get(name)!;
        const problems: string[] = [];
        if (!r.configtest.ok) {
          const first = apacheMessages(r.configtest.output, (p) => p).find((m) => m.severity === 'error');
          problems.push(`config test failed: ${first ? `${first.file}:${first.line}: ${first.message}` : r.configtest.output.split('\n')[0]}`);
        }
        for (const o of r.widened) problems.push(`widened: ${describeOutcome(o)}`);
        for (const o of r.narrowed) problems.push(`narrowed: ${describeOutcome(o)}`);
        // Same-side differences do not fail the case; they are listed with the failures.
        const detail = [...problems, ...(r.converter?.errors ?? []).map((e) => `converter error: ${e}`), ...r.differs.map((o) => `differs: ${describeOutcome(o)}`)];
        const verdict = { widened: r.widened.length, narrowed: r.narrowed.length, configtestFailed: r.configtest.ok ? 0 : 1 };
        if (known) {
          if (problems.length === 0) throw new Error(`${name} now passes (0/0/0): take ${name.split('-')[0]} off KNOWN_FAILING in ${__filename.split('/').slice(-3).join('/')}`);
          // Still failing, as listed: its numbers are in the table above.
          expect(verdict.widened + verdict.narrowed + verdict.configtestFailed).toBeGreaterThan(0);
          return;
        }
        expect({ widened: r.widened.length, narrowed: r.narrowed.length, configtestFailed: r.configtest.ok ? 0 : 1, detail: problems.length ? detail.slice(0, 15) : [] })
          .toEqual({ widened: 0, narrowed: 0, configtestFailed: 0, detail: [] });
      });
    }
  });
}
