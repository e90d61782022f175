// A worker thread of the index bench's ceiling measures (indexCeiling.ts): it reads and parses the files of each
// batch it is sent with the same native host as Weave's parse workers (nativeTreeSitter.ts), and with `query`
// also runs the language's extraction query over each tree (the lean native matcher, results dropped), but does
// nothing else: no hashing, no extraction, no result transfer. Between batches it lets the host collect freed
// trees, as parseWorker.ts does.
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { locateGrammars } from '../src/core/grammarLocation';
import { languageOfPath } from '../src/core/index/languages';
import { loadNativeTreeSitter } from '../src/core/index/nativeTreeSitter';

export interface CeilingWorkerData {
  query: boolean;
}

const port = parentPort;
if (!port) throw new Error('indexCeilingWorker.js runs as a worker thread');
const { query } = workerData as CeilingWorkerData;
const load = loadNativeTreeSitter(locateGrammars());
if (!load.ok) throw new Error(load.reason);
const host = load.host;

port.on('message', (absPaths: string[]) => {
  void (async () => {
    for (const file of absPaths) {
      const language = languageOfPath(file);
      if (language === undefined) throw new Error(`no grammar for ${file}`);
      const lang = await host.language(language);
      const text = fs.readFileSync(file, 'utf8');
      const tree = host.parse(lang, text);
      if (query) lang.query.matches(tree.rootNode);
      host.release(tree);
    }
    host.collectIfDue();
    port.postMessage(absPaths.length);
  })();
});
