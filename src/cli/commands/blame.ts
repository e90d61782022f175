import type { Verb } from '../verb';

// Placeholder until its issue lands; replaced by the real verb.
export const blameVerb: Verb = {
  name: 'blame',
  summary: '(not built yet)',
  help: 'weave blame: not built yet',
  run() {
    process.stderr.write('weave blame: not built yet\n');
    return Promise.resolve(2);
  },
};
