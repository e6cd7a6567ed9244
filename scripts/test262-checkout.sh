#!/bin/sh
# Puts a test262 checkout where the conformance runner can read it (docs/conformance.md), outside the repository:
#   sh scripts/test262-checkout.sh <dest> [<git url or local clone> [<commit>]]
# It writes <dest>/COMMIT, which the runner reports and --update-v8-failures records in v8-failures.txt.
set -eu
dest=${1:?usage: test262-checkout.sh <dest> [<git url or local clone> [<commit>]]}
src=${2:-https://github.com/tc39/test262.git}
commit=${3:-}
case "$(cd "$(dirname "$dest")" 2>/dev/null && pwd)/" in
  "$(git rev-parse --show-toplevel 2>/dev/null || echo /nonexistent)"/*) echo "put test262 outside the repository" >&2; exit 1 ;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -d "$src/.git" ]; then
  gitdir=$src/.git
elif [ -d "$src" ] && git --git-dir="$src" rev-parse --git-dir >/dev/null 2>&1; then
  gitdir=$src
else
  git clone --quiet --bare --filter=blob:none "$src" "$tmp/repo.git"
  gitdir=$tmp/repo.git
fi
rev=$(git --git-dir="$gitdir" rev-parse "${commit:-HEAD}^{commit}")
mkdir -p "$dest"
git --git-dir="$gitdir" archive "$rev" harness test LICENSE | tar -x -C "$dest"
echo "$rev" > "$dest/COMMIT"
echo "test262 $rev in $dest"
