// SHA-256 for short strings on the guard's hot path: `weave guard` runs once per agent tool call, and loading
// node:crypto costs a process 11–16 ms of CPU (measured 2026-12-07), more than hashing a workspace path in plain
// JavaScript. The implementation is Weave's one plain-JavaScript SHA-256, the evidence hook's
// (resources/evidence/weave-evidence-hmac.cjs, which test processes load without node:crypto for the same reason);
// the build bundles it here and copies it beside the transpiled sources. Everything else hashes with node:crypto;
// test/unit/sandbox/sha256.test.ts holds the two equal.
export { sha256Hex } from '../../resources/evidence/weave-evidence-hmac.cjs';
