'use strict';
// The runner's and assertion library's functions as they were when Weave's hook loaded, before any user code:
// node:assert and node:assert/strict (equal, strictEqual, deepStrictEqual, ok, throws, rejects, match …),
// node:test (test, it, describe, suite, the hooks) and the stream method the hook observes node:test through.
// Code under test that replaces one (`assert.equal = () => {}`) makes every assertion through it pass; the
// hook compares the references after every test and when the run ends, and reports the names of any that
// differ (the run is then `tampered`). A replacement undone before the next comparison (swapped in and back
// within one test) is not seen: the comparison is of references, not of every call.

/** `[{ name, holder, key, original }]` for every function-valued own property of `holder`. */
function functionsOf(label, holder) {
  const taken = [];
  if (!holder) return taken;
  for (const key of Object.getOwnPropertyNames(holder)) {
    const descriptor = Object.getOwnPropertyDescriptor(holder, key);
    if (descriptor && typeof descriptor.value === 'function')
      taken.push({ name: `${label}.${key}`, holder, key, original: descriptor.value });
  }
  return taken;
}

/** The functions of node:assert, node:assert/strict and node:test, then `extra`. */
function snapshot(extra) {
  return [
    ...functionsOf('node:assert', require('node:assert')),
    ...functionsOf('node:assert/strict', require('node:assert/strict')),
    ...functionsOf('node:test', require('node:test')),
    ...extra,
  ];
}

/**
 * A checker over the snapshot: `replaced()` lists the names whose current value is not the original;
 * `add(entries)` watches more (a runner's prototypes, taken when the runner loads, before any test file).
 */
function watchOriginals(extra = []) {
  const taken = snapshot(extra);
  const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
  return {
    add(entries) {
      for (let i = 0; i < entries.length; i++) taken[taken.length] = entries[i];
    },
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

module.exports = { watchOriginals, functionsOf };
