import type { Verb } from '../verb';

// Placeholder until its issue lands; replaced by the real verb.
export const graphVerb: Verb = {
  name: 'graph',
  summary: '(not built yet)',
  help: 'weave graph: not built yet',
  run() {
    process.stderr.write('weave graph: not built yet\n');
    return Promise.resolve(2);
  },
};
