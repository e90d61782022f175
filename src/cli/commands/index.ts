import type { Verb } from '../verb';

// Placeholder until its issue lands; replaced by the real verb.
export const indexVerb: Verb = {
  name: 'index',
  summary: '(not built yet)',
  help: 'weave index: not built yet',
  run() {
    process.stderr.write('weave index: not built yet\n');
    return Promise.resolve(2);
  },
};
