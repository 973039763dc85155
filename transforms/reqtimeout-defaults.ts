import { model } from '../src/model/server.js';
import { advice } from './lib/advice.js';

// 2.4's mod_reqtimeout applies timeouts as soon as it is loaded; 2.2's (2.2.15+) applied
// none until RequestReadTimeout said so.
export const reqtimeoutDefaults = advice({
  id: 'reqtimeout-defaults',
  title: 'mod_reqtimeout sets default read timeouts in 2.4',
  docs: 'https://httpd.apache.org/docs/2.4/mod/mod_reqtimeout.html#requestreadtimeout',
  names: ['loadmodule'],
  match: (n, ctx) => {
    if (n.kind !== 'directive' || !n.is('LoadModule') || (n.values[0] ?? '').toLowerCase() !== 'reqtimeout_module') return null;
    for (const main of ctx.tree.mainsOf(ctx.file)) {
      for (const v of model(ctx.tree).server(main).walk()) if (v.node.kind === 'directive' && v.node.is('RequestReadTimeout')) return null;
    }
    return '2.4 applies RequestReadTimeout header=20-40,MinRate=500 body=20,MinRate=500 when mod_reqtimeout is loaded (2.2 applied none): slow clients and slow uploads now get 408; set RequestReadTimeout to choose the limits';
  },
});
