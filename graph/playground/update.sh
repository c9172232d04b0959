#!/usr/bin/env bash
# Refreshes the vendored GraphiQL browser bundle and the React UMD builds in
# assets/ from the npm registry (npm pack: no install, no node_modules).
#
#   bash graph/playground/update.sh
#
# To move to other versions, change the pins below, run the script, check the
# playground in a browser (go test ./graph/playground -run Browser) and update
# the versions in assets/README.md.
set -euo pipefail

GRAPHIQL_VERSION=3.9.0
REACT_VERSION=18.3.1

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
assets="$here/assets"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# fetch PACKAGE VERSION SRC DEST: copies one file out of the package tarball.
fetch() {
	local pkg="$1" version="$2" src="$3" dest="$4" dir="$tmp/$1"
	if [[ ! -d "$dir" ]]; then
		mkdir -p "$dir"
		(cd "$tmp" && npm pack --silent "$pkg@$version" >/dev/null)
		tar -xzf "$tmp/$pkg-$version.tgz" -C "$dir"
	fi
	cp "$dir/package/$src" "$assets/$dest"
	printf '%-28s %s@%s %s\n' "$dest" "$pkg" "$version" "$src"
}

fetch graphiql "$GRAPHIQL_VERSION" graphiql.min.js graphiql.min.js
fetch graphiql "$GRAPHIQL_VERSION" graphiql.min.css graphiql.min.css
fetch graphiql "$GRAPHIQL_VERSION" LICENSE LICENSE.graphiql
fetch react "$REACT_VERSION" umd/react.production.min.js react.production.min.js
fetch react "$REACT_VERSION" LICENSE LICENSE.react
fetch react-dom "$REACT_VERSION" umd/react-dom.production.min.js react-dom.production.min.js
fetch react-dom "$REACT_VERSION" LICENSE LICENSE.react-dom

(cd "$assets" && sha256sum graphiql.min.js graphiql.min.css react.production.min.js react-dom.production.min.js >SHA256SUMS)
echo "wrote $assets (checksums in SHA256SUMS)"
