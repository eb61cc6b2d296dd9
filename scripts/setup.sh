#!/usr/bin/env bash
# Idempotent setup: system packages (fonts, Pango, HarfBuzz subsetter), then .venv with the package.
# Quick when nothing is missing: it checks dpkg and a stamp of pyproject.toml before doing work.
set -euo pipefail
cd "$(dirname "$0")/.."

SYSTEM_PACKAGES=(fonts-noto-core fonts-noto-cjk fonts-dejavu-core libharfbuzz-subset0
                 libpango-1.0-0 libpangoft2-1.0-0 poppler-utils python3-venv
                 libgs-common)  # libgs-common: the CMYK profile of --press files (render/press.py)
# Extra system packages only the test suite needs (pass --test).
TEST_PACKAGES=()
if [[ "${1:-}" == "--test" ]]; then
  # The site tests: Chromium for the browser checks, Java for the W3C Nu HTML checker (vnu.jar);
  # the catalog tests: GNU gettext's msgfmt -c.
  TEST_PACKAGES=(chromium default-jre-headless gettext)
fi

missing=()
for pkg in "${SYSTEM_PACKAGES[@]}" "${TEST_PACKAGES[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$pkg")
done

if ((${#missing[@]})); then
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
    echo "setup: installing system packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "setup: missing system packages; install them with: sudo apt-get install ${missing[*]}" >&2
    exit 2
  fi
fi

PYTHON=${PYTHON:-python3}
stamp=.venv/.rulesheets-stamp
want=$(cat pyproject.toml | sha256sum | cut -d' ' -f1)
if [[ ! -x .venv/bin/python ]]; then
  "$PYTHON" -m venv .venv
fi
if [[ ! -f "$stamp" || "$(cat "$stamp")" != "$want" ]]; then
  echo "setup: installing the package and its dependencies into .venv"
  # An editable install of a pyproject package needs pip 21.3 (PEP 660); only an older pip is upgraded.
  if ! .venv/bin/python -c 'import sys, pip; sys.exit(tuple(map(int, pip.__version__.split(".")[:2])) < (21, 3))'; then
    .venv/bin/python -m pip install -q --upgrade pip >/dev/null
  fi
  .venv/bin/python -m pip install -q -e '.[test]'
  echo "$want" > "$stamp"
fi
