'use strict';
// vite (vitest's config loader, by default) bundles a `vitest.config.*` / `vite.config.*` and imports the bundle
// from node_modules/.vite-temp. In Weave's sandbox node_modules is shown read-only, so that write failed with
// EROFS and an honest config could not load. vite has its own fallback for a folder it may not create (EACCES, as
// in a project without node_modules): the bundle is written next to the config, in the checkout, and removed once
// imported. This makes an unwritable .vite-temp look like that case. Only a mkdir of a folder named .vite-temp is
// affected, and only when the folder cannot be written; everything else reaches fs.promises.mkdir unchanged.
const fs = require('node:fs');
const path = require('node:path');

function writable(dir) {
  try {
    fs.accessSync(dir, fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function permissionDenied(dir) {
  const error = new Error(`EACCES: permission denied, mkdir '${dir}'`);
  error.code = 'EACCES';
  error.errno = -13;
  error.syscall = 'mkdir';
  error.path = dir;
  return error;
}

function fallBackFromReadOnlyViteTemp() {
  const promises = fs.promises;
  const mkdir = promises.mkdir;
  promises.mkdir = async function weaveViteTempMkdir(dir) {
    if (typeof dir !== 'string' || path.basename(dir) !== '.vite-temp') return mkdir.apply(this, arguments);
    let made;
    try {
      made = await mkdir.apply(this, arguments);
    } catch (error) {
      if (!error || error.code !== 'EROFS') throw error;
      throw permissionDenied(dir);
    }
    if (!writable(dir)) throw permissionDenied(dir);
    return made;
  };
}

module.exports = { fallBackFromReadOnlyViteTemp };
