#!/bin/sh
# The action's bubblewrap step: makes the sandbox of exec and verify: commands work on the runner where it
# can, and never fails the job (with sandbox-required, `agent run` itself refuses with exit 3 when the
# sandbox still does not work). It reads no input. Three cases:
# - bwrap missing: `apt-get install -y bubblewrap` as root (GitHub's Ubuntu runners have passwordless
#   sudo), after an `apt-get update` when the first try fails (the image's package lists can be stale).
# - bwrap present but refused its user namespace: Ubuntu 24.04 restricts unprivileged user namespaces
#   through AppArmor (kernel.apparmor_restrict_unprivileged_userns=1, on by default since 24.04:
#   https://ubuntu.com/blog/ubuntu-23-10-restricted-unprivileged-user-namespaces), and bwrap then fails
#   with "setting up uid map: Permission denied" (containers/bubblewrap#632; the runner images keep the
#   restriction: actions/runner-images#11489 was closed unmerged). The runner is a throwaway VM, so the
#   sysctl is set back to 0, as on Ubuntu 22.04 (the workaround of DeterminateSystems/nix-installer-action#193).
# - not Linux: there is no sandbox to set up.
# Messages are GitHub workflow commands (::notice:: / ::warning::), shown on the job page.

say() { printf '%s\n' "$1"; }

if [ "$(uname -s)" != "Linux" ]; then
  say "::notice::agent: the sandbox is Linux only; exec and verify: commands run unsandboxed on $(uname -s)"
  exit 0
fi

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; else sudo -n "$@"; fi
}

# Runs `true` in the namespaces agent's own probe tries first (src/tools/exec/sandbox.ts).
bwrap_works() {
  bwrap --ro-bind / / --dev /dev --unshare-user --cap-drop ALL true 2>&1
}

if ! command -v bwrap >/dev/null 2>&1; then
  if ! command -v apt-get >/dev/null 2>&1; then
    say "::warning::agent: bwrap (bubblewrap) is not installed and apt-get is not here to install it; install bubblewrap in an earlier step, or set sandbox: off"
    exit 0
  fi
  say "agent: installing bubblewrap (sudo apt-get install -y bubblewrap)"
  if ! as_root apt-get install -y bubblewrap; then
    as_root apt-get update && as_root apt-get install -y bubblewrap
  fi
  if ! command -v bwrap >/dev/null 2>&1; then
    say "::warning::agent: bubblewrap could not be installed; exec and verify: commands run unsandboxed (or, with sandbox-required, the run fails)"
    exit 0
  fi
fi

if refused=$(bwrap_works); then
  say "agent: bubblewrap works"
  exit 0
fi
if [ "$(sysctl -n kernel.apparmor_restrict_unprivileged_userns 2>/dev/null)" = 1 ]; then
  say "agent: AppArmor restricts unprivileged user namespaces here; setting kernel.apparmor_restrict_unprivileged_userns=0 for bwrap"
  as_root sysctl -w kernel.apparmor_restrict_unprivileged_userns=0
  if refused=$(bwrap_works); then
    say "agent: bubblewrap works"
    exit 0
  fi
fi
say "::warning::agent: bwrap does not work on this runner (${refused}); exec and verify: commands run unsandboxed (or, with sandbox-required, the run fails)"
exit 0
