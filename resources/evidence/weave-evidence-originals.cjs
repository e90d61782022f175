'use strict';
// The runner's and assertion library's functions as they were when Weave's hook loaded, before any user code:
// node:assert and node:assert/strict (equal, strictEqual, deepStrictEqual, ok, throws, rejects, match …),
// node:test (test, it, describe, suite, the hooks) and the stream method the hook observes node:test through.
// Code under test that replaces one (`assert.equal = () => {}`) makes every assertion through it pass; the
// hook compares the references after every test and when the run ends, and reports the names of any that
// differ (the run is then `tampered`). A replacement undone before the next comparison (swapped in and back
// within one test) is not seen: the comparison is of references, not of every call.

/** `[{ name, holder, key, original }]` for every function-valued own property of the given modules. */
function snapshot(extra) {
  const taken = [];
  const take = (label, holder) => {
    if (!holder) return;
    for (const key of Object.getOwnPropertyNames(holder)) {
      const descriptor = Object.getOwnPropertyDescriptor(holder, key);
      if (descriptor && typeof descriptor.value === 'function')
        taken.push({ name: `${label}.${key}`, holder, key, original: descriptor.value });
    }
  };
  take('node:assert', require('node:assert'));
  take('node:assert/strict', require('node:assert/strict'));
  take('node:test', require('node:test'));
  for (const entry of extra) taken.push(entry);
  return taken;
}

/** A checker over the snapshot: `replaced()` lists the names whose current value is not the original. */
function watchOriginals(extra = []) {
  const taken = snapshot(extra);
  const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
  return {
    replaced() {
      const names = [];
      for (let i = 0; i < taken.length; i++) {
        const { name, holder, key, original } = taken[i];
        let current;
        try {
          const descriptor = getOwnPropertyDescriptor(holder, key);
          current = descriptor && (descriptor.get ? '(a getter)' : descriptor.value);
        } catch {
          current = undefined;
        }
        if (current !== original) names[names.length] = name;
      }
      return names;
    },
  };
}

module.exports = { watchOriginals };
