import type { Verb } from '../verb';

// Placeholder until its issue lands; replaced by the real verb.
export const exportVerb: Verb = {
  name: 'export',
  summary: '(not built yet)',
  help: 'weave export: not built yet',
  run() {
    process.stderr.write('weave export: not built yet\n');
    return Promise.resolve(2);
  },
};
