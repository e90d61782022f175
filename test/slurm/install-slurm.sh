#!/bin/sh
# Installs Debian's Slurm (slurmctld, slurmd, the client commands) and munge when they are missing, so the e2e
# test of `weave mine` on a real Slurm can start them (test/support/slurmCluster.ts). Idempotent: a machine that
# has them installs nothing. Needs root and apt-get (Debian/Ubuntu), as CI has.
set -eu
missing=""
for tool in slurmctld slurmd sbatch munged mungekey; do
  command -v "$tool" >/dev/null 2>&1 || missing="$missing $tool"
done
[ -z "$missing" ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-slurm: missing$missing and no apt-get to install them" >&2
  exit 1
fi
if [ "$(id -u)" != 0 ]; then
  echo "install-slurm: missing$missing; installing them needs root" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# --no-install-recommends: the daemons and clients only, not the documentation and mail tools they recommend.
apt-get install -y -qq --no-install-recommends slurmctld slurmd slurm-client munge >/dev/null
