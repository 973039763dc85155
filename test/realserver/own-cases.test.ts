// Cases written for this project, in the layout of ../shared/authz-cases (test/realserver/cases):
// situations the shared cases do not cover. Their statuses are derived from 2.2's rules, not
// recorded (each case.md says how); the converted tree must give them on a real httpd 2.4,
// and keep in 2.2 form exactly the access sections the case names (kept22; none by default).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describeOutcome, describeWithHttpd, readCase, runAuthzCase } from '../helpers/httpd.js';

const dir = join(__dirname, 'cases');
const cases = readdirSync(dir).filter((n) => /^\d+-/.test(n)).sort();

describeWithHttpd('project authz cases on a real httpd 2.4', (httpd) => {
  test.each(cases)('%s', async (name) => {
    const kept = readCase(join(dir, name)).kept22 ?? [];
    const r = await runAuthzCase(httpd, join(dir, name));
    expect({
      configtest: r.configtest.ok ? 'ok' : r.configtest.output.split('\n')[0],
      // The MPM choice is the one manual finding every case tree gets besides kept sections.
      manual: r.converter?.manual,
      kept22: r.converter?.keptAccess,
      errors: r.converter?.errors,
      different: [...r.widened, ...r.narrowed, ...r.differs].map(describeOutcome),
    }).toEqual({ configtest: 'ok', manual: 1 + kept.length, kept22: kept, errors: [], different: [] });
  }, 60_000);
});
