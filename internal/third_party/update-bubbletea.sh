#!/usr/bin/env bash
# Re-applies grotto's render-on-demand patch (bubbletea.patch) onto a
# Bubble Tea release, runs Bubble Tea's own tests on the result, and puts
# it in place of internal/third_party/bubbletea. See README.md here.
#
#   internal/third_party/update-bubbletea.sh v2.1.2
#
# Then, at the repo root: go mod tidy && go test -race ./...
# A patch that no longer applies (upstream changed the render loop, perhaps
# by merging charmbracelet/bubbletea#1776 or #1796) stops the script and
# changes nothing: read the release first; it may be time to drop the copy.
set -euo pipefail
ver=${1:?usage: $0 VERSION (for example v2.1.2)}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
src=$(cd "$root" && go mod download -json "charm.land/bubbletea/v2@$ver" |
	sed -n 's/^[[:space:]]*"Dir": "\(.*\)",*$/\1/p')
[ -d "$src" ] || { echo "no source for charm.land/bubbletea/v2@$ver" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$src" "$work/bubbletea"
chmod -R u+w "$work/bubbletea"
(cd "$work/bubbletea" && patch -p1 --fuzz=0 --no-backup-if-mismatch <"$here/bubbletea.patch")
(cd "$work/bubbletea" && go vet ./... && go test -race ./...)
rm -rf "$here/bubbletea"
mv "$work/bubbletea" "$here/bubbletea"
(cd "$root" && go mod edit -require="charm.land/bubbletea/v2@$ver")
echo "internal/third_party/bubbletea is $ver with grotto's patch; now: go mod tidy && go test -race ./..."
