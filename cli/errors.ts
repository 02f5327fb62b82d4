/**
 * The errors a user's machine raises (a busy port, a file where a folder is needed, a full disk)
 * told in one line that names the path or port and says what to do (issue 24): Node's own
 * message and stack are for `--debug`.
 */

interface SystemError {
  code?: unknown;
  syscall?: unknown;
  path?: unknown;
  dest?: unknown;
  address?: unknown;
  port?: unknown;
  message?: unknown;
}

/** The one line for a system error (errno code), or undefined for any other error. */
export function systemErrorLine(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, syscall, path, address, port } = error as SystemError;
  if (typeof code !== 'string' || !/^E[A-Z]+$/.test(code)) return undefined;
  if (syscall === 'listen') {
    const host = typeof address === 'string' ? address : '127.0.0.1';
    const where = `${host}:${String(port)}`;
    if (code === 'EADDRINUSE') return `port ${String(port)} on ${host} is in use (another server?): give another with --port, or --port 0 for a free one`;
    if (code === 'EACCES') return `port ${String(port)} needs privileges this user lacks: give a port above 1023 with --port, or --port 0 for a free one`;
    if (code === 'EADDRNOTAVAIL') return `cannot listen on ${where}: no such address on this machine; give one of its addresses, e.g. --host 127.0.0.1`;
    return `cannot listen on ${where} (${code}): give another --port or --host`;
  }
  const file = typeof path === 'string' ? path : undefined;
  if (file === undefined) return undefined;
  switch (code) {
    case 'EEXIST':
    case 'ENOTDIR':
      return `${file} is a file where a folder is needed: give a folder instead, or move the file away`;
    case 'EISDIR':
      return `${file} is a folder where a file is needed: give a file name instead`;
    case 'ENOENT':
      return `${file}: no such file or folder; check the path`;
    case 'EACCES':
    case 'EPERM':
      return `no permission to ${syscall === 'open' || syscall === 'scandir' || syscall === 'stat' ? 'read or write' : 'write'} ${file}: give a path this user may write, or fix its permissions`;
    case 'EROFS':
      return `${file} is on a read-only file system: give a path on a writable one`;
    case 'ENOSPC':
    case 'EDQUOT':
      return `no space left on the disk holding ${file}: free some space, or give a path on another disk`;
    default:
      return `${file}: ${code} (${String(syscall)}); check the path, or run again with --debug for the details`;
  }
}

/** The line for an error no command expected: its message, and where the details are. */
export function unexpectedErrorLine(error: unknown): string {
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return `${message} (an unexpected error: run again with --debug for the details, and report it if it persists)`;
}
