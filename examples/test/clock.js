'use strict';
// A manual clock: tests move time forward instead of sleeping.

function createClock(start = 1_000_000) {
  let now = start;
  return {
    now: () => now,
    advance(ms) {
      now += ms;
    },
  };
}

module.exports = { createClock };
