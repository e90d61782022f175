'use strict';
// HMAC-SHA256 and random bytes for the Node.js evidence hook without `node:crypto`. The hook is loaded into every
// Node.js process of a spec's command; loading node:crypto costs 10–15 ms of CPU in each (measured on Node 24:
// node --test's main process and each of its test-file processes, npm, npx load it for the hook alone), and the
// hook signs a handful of short records per process, where a plain implementation costs microseconds.
//
// Code under test runs in this process after this file loads, so the signing path must not call anything it
// could have replaced: only operators, typed arrays and functions taken here, at load.
//
// Weave's one plain-JavaScript SHA-256: the guard's hook path (src/core/sha256.ts) uses this file too, for the
// same reason (no node:crypto in a process started on every agent tool call).
const fs = require('node:fs');

const apply = Reflect.apply;
const bufferFrom = Buffer.from;
const bufferAlloc = Buffer.alloc;
const bufferToString = Buffer.prototype.toString;
const { openSync, readSync, closeSync } = fs;
const Uint32 = Uint32Array;
const Uint8 = Uint8Array;

const K = new Uint32([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);
const INITIAL = [
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

/** SHA-256 of `bytes` (a Uint8Array) as 32 bytes. */
function sha256(bytes) {
  const length = bytes.length;
  // The message, a 0x80 byte, zeros, and the bit length as 64 bits: a multiple of 64 bytes.
  const padded = new Uint8((((length + 8) >> 6) + 1) << 6);
  for (let i = 0; i < length; i++) padded[i] = bytes[i];
  padded[length] = 0x80;
  const bits = length * 8;
  const end = padded.length;
  padded[end - 1] = bits & 0xff;
  padded[end - 2] = (bits >>> 8) & 0xff;
  padded[end - 3] = (bits >>> 16) & 0xff;
  padded[end - 4] = (bits >>> 24) & 0xff;
  padded[end - 5] = ((bits - (bits >>> 0)) / 0x100000000) & 0xff;
  const h = new Uint32(8);
  for (let i = 0; i < 8; i++) h[i] = INITIAL[i];
  const w = new Uint32(64);
  for (let block = 0; block < end; block += 64) {
    for (let t = 0; t < 16; t++) {
      const j = block + t * 4;
      w[t] = (padded[j] << 24) | (padded[j + 1] << 16) | (padded[j + 2] << 8) | padded[j + 3];
    }
    for (let t = 16; t < 64; t++) {
      const a = w[t - 15];
      const b = w[t - 2];
      const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
      const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
      w[t] = (w[t - 16] + s0 + w[t - 7] + s1) | 0;
    }
    let a = h[0];
    let b = h[1];
    let c = h[2];
    let d = h[3];
    let e = h[4];
    let f = h[5];
    let g = h[6];
    let k = h[7];
    for (let t = 0; t < 64; t++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const ch = (e & f) ^ (~e & g);
      const temp1 = (k + S1 + ch + K[t] + w[t]) | 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const temp2 = (S0 + maj) | 0;
      k = g;
      g = f;
      f = e;
      e = (d + temp1) | 0;
      d = c;
      c = b;
      b = a;
      a = (temp1 + temp2) | 0;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += k;
  }
  const out = new Uint8(32);
  for (let i = 0; i < 8; i++) {
    out[i * 4] = h[i] >>> 24;
    out[i * 4 + 1] = (h[i] >>> 16) & 0xff;
    out[i * 4 + 2] = (h[i] >>> 8) & 0xff;
    out[i * 4 + 3] = h[i] & 0xff;
  }
  return out;
}

function utf8(text) {
  return apply(bufferFrom, Buffer, [text, 'utf8']);
}

function concat(first, second) {
  const out = new Uint8(first.length + second.length);
  for (let i = 0; i < first.length; i++) out[i] = first[i];
  for (let i = 0; i < second.length; i++) out[first.length + i] = second[i];
  return out;
}

const HEX = '0123456789abcdef';
function toHex(bytes) {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += HEX[bytes[i] >> 4] + HEX[bytes[i] & 15];
  return out;
}

/** SHA-256 of `text`'s UTF-8 bytes as lowercase hex (Weave's guard names its session folders with it). */
function sha256Hex(text) {
  return toHex(sha256(utf8(text)));
}

/** HMAC-SHA256 (RFC 2104) of `text` under `key` (both strings, UTF-8), as lowercase hex. */
function hmacHex(key, text) {
  let keyBytes = utf8(key);
  if (keyBytes.length > 64) keyBytes = sha256(keyBytes);
  const inner = new Uint8(64);
  const outer = new Uint8(64);
  for (let i = 0; i < 64; i++) {
    const byte = i < keyBytes.length ? keyBytes[i] : 0;
    inner[i] = byte ^ 0x36;
    outer[i] = byte ^ 0x5c;
  }
  return toHex(sha256(concat(outer, sha256(concat(inner, utf8(text))))));
}

/** `count` random bytes from the kernel, as hex (record instances, file names, child-key nonces). */
function randomHex(count) {
  const bytes = apply(bufferAlloc, Buffer, [count]);
  const fd = openSync('/dev/urandom', 'r');
  try {
    let read = 0;
    while (read < count) read += readSync(fd, bytes, read, count - read, null);
  } finally {
    closeSync(fd);
  }
  return apply(bufferToString, bytes, ['hex']);
}

module.exports = { hmacHex, randomHex, sha256, sha256Hex };
