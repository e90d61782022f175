'use strict';
// How Weave's Node.js hook signs what it reports, so code under test cannot forge a results file. The run's
// secret arrives on an inherited descriptor (its number in WEAVE_EVIDENCE_KEY_FD; Weave's runCommand hands the
// first hook process of each chain a socket holding `run <secret>` lines, a hook that starts a child hands it
// a socket of its own). It is read once, before any user code, and the descriptor closed; from then on the
// key lives only in this module's closure. Every record is one line `{"key","body","mac"}`, the mac being
// HMAC-SHA256 over the body (src/core/check/evidence/records.ts checks them).
//
// Code under test runs in this process after this file loads and may have replaced any global by the time a
// record is written (JSON.stringify, Object.prototype.toJSON, Buffer.from, fs.writeSync …): so everything
// the signing path calls is taken here, at load, and records are serialised by hand.
const fs = require('node:fs');
// Not node:crypto: loading it costs 10–15 ms of CPU in every process the hook is in (weave-evidence-hmac.cjs).
const { hmacHex, randomHex } = require('./weave-evidence-hmac.cjs');

const apply = Reflect.apply;
const stringify = JSON.stringify;
const ownKeys = Object.keys;
const isArray = Array.isArray;
const { writeSync, closeSync, readSync, fstatSync, openSync } = fs;
const regExpTest = RegExp.prototype.test;

const KEY_FD_VARIABLE = 'WEAVE_EVIDENCE_KEY_FD';
const MESSAGE = /^([0-9a-z]{1,64}) ([0-9a-f]{64})$/;

function hex(bytes) {
  return randomHex(bytes);
}

/**
 * The key this process was handed (`{ id, key }`), or undefined. Reads one line byte by byte (several hook
 * processes of one chain may share Weave's socket; each takes one line) and closes the descriptor.
 */
function receiveKey() {
  const fdText = process.env[KEY_FD_VARIABLE];
  delete process.env[KEY_FD_VARIABLE];
  if (fdText === undefined || !apply(regExpTest, /^[0-9]{1,4}$/, [fdText])) return undefined;
  const fd = Number(fdText);
  if (fd < 3) return undefined;
  try {
    // Only a socket is Weave's (a number copied into some other process's environment names something else).
    if (!fstatSync(fd).isSocket()) return undefined;
  } catch {
    return undefined;
  }
  let line = '';
  const byte = Buffer.alloc(1);
  const deadline = Date.now() + 5000;
  try {
    while (line.length < 140) {
      let n;
      try {
        n = readSync(fd, byte, 0, 1, null);
      } catch (error) {
        // The parent writes right after starting us; a non-blocking socket may not have it yet.
        if (error && error.code === 'EAGAIN' && Date.now() < deadline) {
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2);
          continue;
        }
        return undefined;
      }
      if (n === 0) break;
      const c = byte[0] === 10 ? '\n' : String.fromCharCode(byte[0]);
      if (c === '\n') break;
      line += c;
    }
  } finally {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
  }
  const match = MESSAGE.exec(line);
  return match ? { id: match[1], key: match[2] } : undefined;
}

/** JSON of a record built by the hooks (plain objects, arrays, strings, numbers, booleans), by hand. */
function encode(value) {
  if (value === null || value === undefined) return 'null';
  const type = typeof value;
  if (type === 'string' || type === 'boolean') return stringify(value);
  if (type === 'number') return Number.isFinite(value) ? stringify(value) : 'null';
  if (isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i > 0 ? ',' : '') + encode(value[i]);
    return out + ']';
  }
  const keys = ownKeys(value);
  let out = '{';
  for (let i = 0; i < keys.length; i++)
    out += (i > 0 ? ',' : '') + stringify(keys[i]) + ':' + encode(value[keys[i]]);
  return out + '}';
}

/**
 * A signer for this process, or undefined without a key (nothing is written then: an unsigned record would
 * never count). `write(record)` appends one signed line to this process's results file.
 */
function openChannel(dir) {
  const received = receiveKey();
  if (!received || !dir) return undefined;
  const { id, key } = received;
  const file = dir + '/node-' + process.pid + '-' + hex(6) + '.jsonl';
  return {
    write(record) {
      const body = encode(record);
      const line = encode({ key: id, body, mac: hmacHex(key, body) }) + '\n';
      try {
        const fd = openSync(file, 'a', 0o600);
        try {
          writeSync(fd, line);
        } finally {
          closeSync(fd);
        }
      } catch {
        // The results directory is gone (the run was cancelled): nothing to report to.
      }
    },
    /**
     * Hands a key to the children this process starts (asynchronously: spawn, exec, fork) whose environment
     * `wants(envPairs)` says will load a hook: on an extra descriptor, named in their environment. With
     * `derive`, each gets a key of its own derived from the run's (records.ts childKey), which cannot sign the
     * run's counts. Call it only where no user code runs (a launcher: npm, `node --test`'s main process).
     */
    handKeysToChildren(wants, derive) {
      const { ChildProcess } = require('node:child_process');
      const spawn = ChildProcess.prototype.spawn;
      const keyLine = () => {
        if (!derive || id !== 'run') return id + ' ' + key + '\n';
        const nonce = hex(8);
        return nonce + ' ' + hmacHex(key, 'child:' + nonce) + '\n';
      };
      ChildProcess.prototype.spawn = function weaveKeyedSpawn(options) {
        if (!options || typeof options !== 'object' || !isArray(options.envPairs) || !wants(options.envPairs))
          return apply(spawn, this, [options]);
        const given = options.stdio;
        const stdio =
          typeof given === 'string'
            ? [given, given, given]
            : isArray(given)
              ? [...given]
              : ['pipe', 'pipe', 'pipe'];
        while (stdio.length < 3) stdio.push(undefined);
        const slot = stdio.length;
        stdio.push('pipe');
        const envPairs = options.envPairs.filter((pair) => !pair.startsWith(KEY_FD_VARIABLE + '='));
        envPairs.push(KEY_FD_VARIABLE + '=' + slot);
        const result = apply(spawn, this, [{ ...options, stdio, envPairs }]);
        const socket = this.stdio && this.stdio[slot];
        if (socket) {
          socket.on('error', () => undefined);
          socket.end(keyLine(), () => socket.destroy());
        }
        return result;
      };
    },
  };
}

/** A fresh random id (a runner instance in the records). */
function newInstance() {
  return hex(8);
}

module.exports = { openChannel, newInstance };
