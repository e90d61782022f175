import type { Verb } from '../verb';

// Placeholder until its issue lands; replaced by the real verb.
export const affectedVerb: Verb = {
  name: 'affected',
  summary: '(not built yet)',
  help: 'weave affected: not built yet',
  run() {
    process.stderr.write('weave affected: not built yet\n');
    return Promise.resolve(2);
  },
};
