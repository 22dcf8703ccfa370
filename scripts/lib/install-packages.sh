# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Sourced by amp's setup scripts: amp_install_packages NAME PACKAGE...
# installs the Debian packages that are missing (with sudo when not root),
# prefixing its messages with NAME.
amp_install_packages() {
  local name="$1"
  shift
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null; then sudo="sudo"; else
      echo "$name: not root and no sudo; install these packages by hand: $*" >&2
    fi
  fi
  local missing=() p
  for p in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$p")
    fi
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    echo "$name: installing ${missing[*]}"
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
  else
    echo "$name: all Debian packages present"
  fi
}
