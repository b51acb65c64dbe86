#!/bin/sh
# Refreshes the xterm.js files embedded in grotto's binary (server/web/assets):
# @xterm/xterm and @xterm/addon-fit from the npm registry, with their
# licences. Run it from anywhere; it needs npm. Change the versions below to
# upgrade, run it, then `go test ./server/web` (the browser test draws a game).
set -eu
XTERM=6.0.0
FIT=0.11.0
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
npm pack --silent "@xterm/xterm@$XTERM" "@xterm/addon-fit@$FIT" >/dev/null
mkdir xterm fit
tar -xzf xterm-xterm-$XTERM.tgz -C xterm
tar -xzf xterm-addon-fit-$FIT.tgz -C fit
cp xterm/package/lib/xterm.js "$here/xterm.js"
cp xterm/package/css/xterm.css "$here/xterm.css"
cp xterm/package/LICENSE "$here/LICENSE.xterm"
cp fit/package/lib/addon-fit.js "$here/addon-fit.js"
cp fit/package/LICENSE "$here/LICENSE.addon-fit"
printf '@xterm/xterm %s\n@xterm/addon-fit %s\n' "$XTERM" "$FIT" > "$here/VERSIONS"
echo "refreshed: @xterm/xterm $XTERM, @xterm/addon-fit $FIT in $here"
