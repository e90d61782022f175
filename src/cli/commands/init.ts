import type { Verb } from '../verb';

// Placeholder until its issue lands; replaced by the real verb.
export const initVerb: Verb = {
  name: 'init',
  summary: '(not built yet)',
  help: 'weave init: not built yet',
  run() {
    process.stderr.write('weave init: not built yet\n');
    return Promise.resolve(2);
  },
};
