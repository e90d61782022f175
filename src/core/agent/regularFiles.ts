// Reading and rewriting the files an agent names, so that a file the agent's own code planted cannot hang or
// redirect the tool: opened with O_NOFOLLOW (a link swapped in after the jail resolved the path is refused, not
// followed out of the checkout) and O_NONBLOCK (opening a FIFO with no writer returns at once instead of
// blocking a libuv thread past every budget and SIGTERM), then fstat'ed on the open descriptor, and anything but a
// regular file (FIFO, socket, device) is refused with a message the model can act on.
import { constants, promises as fs, type Stats } from 'node:fs';

/** The path names something that is not a regular file; the message says what it is. */
export class NotRegularFileError extends Error {
  override name = 'NotRegularFileError';
}

const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const WRITE_FLAGS = constants.O_WRONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** The bytes of the regular file at `real` (a path with no symlink left in it), at most `maxBytes`. */
export async function readRegularFile(real: string, relative: string, maxBytes: number): Promise<Buffer> {
  const handle = await openNoFollow(real, relative, READ_FLAGS);
  try {
    const stat = await handle.stat();
    refuseUnlessRegular(stat, relative);
    if (stat.size > maxBytes) throw new Error(`${relative} is larger than ${formatBytes(maxBytes)}`);
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** Replaces the content of the existing regular file at `real` (no symlink left in the path). */
export async function rewriteRegularFile(real: string, relative: string, content: string): Promise<void> {
  const handle = await openNoFollow(real, relative, WRITE_FLAGS);
  try {
    refuseUnlessRegular(await handle.stat(), relative);
    await handle.truncate(0);
    await handle.write(content, 0);
  } finally {
    await handle.close();
  }
}

/** Refuses `stat` unless it is a regular file (folders get their own message from the callers). */
export function refuseUnlessRegular(stat: Stats, relative: string): void {
  if (stat.isFile()) return;
  if (stat.isDirectory()) throw new NotRegularFileError(`${relative} is a folder: use list_files`);
  throw new NotRegularFileError(
    `${relative} is ${kindOf(stat)}, not a regular file: the tools only read and edit regular files`,
  );
}

async function openNoFollow(real: string, relative: string, flags: number): Promise<fs.FileHandle> {
  try {
    return await fs.open(real, flags);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw new NotRegularFileError(`${relative} became a symbolic link: not followed`);
    // O_WRONLY|O_NONBLOCK on a FIFO without a reader.
    if (code === 'ENXIO')
      throw new NotRegularFileError(`${relative} is a FIFO or socket, not a regular file`);
    throw error;
  }
}

function kindOf(stat: Stats): string {
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  return 'not a file';
}

function formatBytes(bytes: number): string {
  return bytes >= 1_000_000 ? `${bytes / 1_000_000} MB` : `${bytes} bytes`;
}
