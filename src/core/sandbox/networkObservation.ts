// Connection attempts the sandbox sees instead of only refusing (issue #35: a test that tried to reach the network
// was stopped by the missing route and then judged on what was left, so the code that tried it was applied to the
// user's tree, where nothing stops it). A run without network has its own network namespace holding only a
// loopback interface: every outbound TCP connect, UDP connect or sendto to a non-loopback address fails with
// ENETUNREACH, and the kernel counts each in that namespace's `Ip: OutNoRoutes` (/proc/net/snmp) or
// `Ip6OutNoRoutes` (/proc/net/snmp6) — counters that only the kernel writes, that no process in the namespace can
// reset, and that loopback traffic does not touch (measured with bwrap --unshare-net on this machine). The run's
// own shell reads them after the command (and after the processes-left listing, so a daemon's last attempts count
// too) and reports a non-zero count on stderr; a run whose command exited 0 then exits 87, so a report hidden by
// the code under test (output flooded past the cap) still cannot make the spec pass.
// The namespace is new for every run (a prepared bwrap process reads its options, --unshare-net included, before
// it creates any namespace: preparedSandbox.ts), so the counters start at zero and are read once, at the end: the
// shell's `read` takes a byte per system call, and each read of the two files is ~1 ms on a loaded machine.
// A name lookup is an attempt too: the run sees a resolver configuration naming an unroutable nameserver, so a
// lookup that /etc/hosts does not answer is a counted UDP connect (not a query to a loopback resolver such as
// systemd-resolved's 127.0.0.53, which the counters would not see).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ObservedAttempt } from '../../shared/attempts';

/** A command whose commandline exited 0 but tried to connect outside the sandbox exits with this. */
export const CONNECTION_ATTEMPT_EXIT = 87;
const REPORT = 'weave: outbound connection attempts refused (IPv4 IPv6):';

/**
 * Shell lines (after the command and the processes-left listing, `weave_status` holding its exit) that read the
 * namespace's refused-route counters and report them. Only builtins: no process is started.
 */
export function connectionAttemptLines(): string[] {
  return [
    'weave_v4=0 weave_v6=0 weave_h= weave_c=',
    '{ read -r weave_h; read -r weave_c; } </proc/net/snmp 2>/dev/null',
    // The header line names the `Ip:` fields, the next line holds their values in the same order.
    'set -- $weave_c',
    'for weave_n in $weave_h; do [ "$weave_n" = OutNoRoutes ] && { weave_v4=${1:-0}; break; }; shift; done',
    'while read -r weave_n weave_c; do',
    '  [ "$weave_n" = Ip6OutNoRoutes ] && { weave_v6=$weave_c; break; }',
    'done </proc/net/snmp6 2>/dev/null',
    'if [ "$weave_v4" != 0 ] || [ "$weave_v6" != 0 ]; then',
    `  printf '%s %s %s\\n' '${REPORT}' "$weave_v4" "$weave_v6" >&2`,
    `  [ "$weave_status" = 0 ] && weave_status=${CONNECTION_ATTEMPT_EXIT}`,
    'fi',
  ];
}

/** The connection attempts a finished run's report names (none when its output holds no report). */
export function connectionAttempts(output: string): ObservedAttempt[] {
  for (const line of output.split('\n')) {
    if (!line.startsWith(REPORT)) continue;
    const match = /^\s*(\d+) (\d+)\s*$/.exec(line.slice(REPORT.length));
    if (!match) continue;
    const v4 = Number(match[1]);
    const v6 = Number(match[2]);
    if (v4 + v6 === 0) continue;
    const n = v4 + v6;
    return [
      {
        kind: 'network',
        target: `${n} outbound connection attempt${n === 1 ? '' : 's'} (IPv4 ${v4}, IPv6 ${v6})`,
      },
    ];
  }
  return [];
}

/** Inside a run without network, name lookups go here: an address no route leads to (TEST-NET-1, RFC 5737). */
const RESOLVER_CONF = 'nameserver 192.0.2.53\noptions attempts:1 timeout:1\n';

let resolverFile: string | undefined;

/**
 * The bind that shows a run without network the unroutable resolver configuration, at the path the system's
 * /etc/resolv.conf leads to (it is often a link into /run, which the sandbox does not show). None when the
 * system has no resolver configuration (the C library then asks the loopback, unseen: docs/threat-model.md).
 */
export function unroutableResolverBind(): { source: string; target: string } | undefined {
  const target = resolverConfigPath();
  if (target === undefined) return undefined;
  if (resolverFile === undefined || !fs.existsSync(resolverFile)) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-resolver-'));
    const file = path.join(dir, 'resolv.conf');
    fs.writeFileSync(file, RESOLVER_CONF, { mode: 0o644 });
    fs.chmodSync(dir, 0o755);
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    resolverFile = file;
  }
  return { source: resolverFile, target };
}

function resolverConfigPath(): string | undefined {
  const conf = '/etc/resolv.conf';
  const stat = fs.lstatSync(conf, { throwIfNoEntry: false });
  if (stat === undefined) return undefined;
  if (!stat.isSymbolicLink()) return conf;
  try {
    return fs.realpathSync(conf);
  } catch {
    // A dangling link (its target lives in a /run the host does not have either): bind where it points.
    return path.resolve('/etc', fs.readlinkSync(conf));
  }
}
