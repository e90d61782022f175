import type { Verb } from '../verb';

// Placeholder until its issue lands; replaced by the real verb.
export const checkVerb: Verb = {
  name: 'check',
  summary: '(not built yet)',
  help: 'weave check: not built yet',
  run() {
    process.stderr.write('weave check: not built yet\n');
    return Promise.resolve(2);
  },
};
