#!/bin/sh
# The spectator page's libraries, fetched again from the npm registry with
# `npm pack` at their pinned versions. Each package's tarball must have its
# pinned sha256; the files the page uses are then copied here, as published,
# with the package's LICENSE and package.json (its version).
#
#   fetch.sh          replace vendor/msgpack and vendor/noble-hashes
#   fetch.sh --check  only compare them with the registry's; fail on a difference
#
# To move to a new version: change it and its sha256 below, run fetch.sh, and
# run the page's tests (tests/server/web/).
set -eu

MSGPACK_VERSION=3.1.3
MSGPACK_SHA256=1fef5cd691fbe3ea2695ca12c8c01a5c2c50e7014486d32037e0242c1c24bd36
NOBLE_HASHES_VERSION=2.4.0
NOBLE_HASHES_SHA256=e1946149b780017b2564fcc092cb01c04e1d7f20627d0296c17da8868f4436dc

here=$(cd "$(dirname "$0")" && pwd)
check=false
case "${1-}" in
"") ;;
--check) check=true ;;
*) echo "usage: $0 [--check]" >&2 && exit 2 ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# unpack SPEC SHA256: the package SPEC (name@version) unpacked in $work/package.
unpack() {
	tarball=$(cd "$work" && npm pack --silent "$1")
	echo "$2  $work/$tarball" | sha256sum --check --quiet - || {
		echo "$1: the registry's tarball is not the pinned one" >&2
		exit 1
	}
	rm -rf "$work/package" && tar -xzf "$work/$tarball" -C "$work"
}

# place FOLDER: what was gathered in $work/out/FOLDER becomes vendor/FOLDER (or is compared).
place() {
	if $check; then
		diff -r "$work/out/$1" "$here/$1" || {
			echo "vendor/$1 differs from the registry's files" >&2
			exit 1
		}
	else
		rm -rf "${here:?}/$1" && cp -R "$work/out/$1" "$here/$1"
	fi
}

# @msgpack/msgpack: its ES module build (dist.esm), without type declarations or source maps.
unpack "@msgpack/msgpack@$MSGPACK_VERSION" "$MSGPACK_SHA256"
mkdir -p "$work/out/msgpack/utils"
cp "$work"/package/LICENSE "$work"/package/package.json "$work"/package/dist.esm/*.mjs "$work/out/msgpack/"
cp "$work"/package/dist.esm/utils/*.mjs "$work/out/msgpack/utils/"
place msgpack

# @noble/hashes: SHA-256 (sha2.js) and the three modules it imports.
unpack "@noble/hashes@$NOBLE_HASHES_VERSION" "$NOBLE_HASHES_SHA256"
mkdir -p "$work/out/noble-hashes"
for file in LICENSE package.json sha2.js _md.js _u64.js utils.js; do
	cp "$work/package/$file" "$work/out/noble-hashes/"
done
place noble-hashes

if $check; then
	echo "vendor/: the files are the registry's"
else
	echo "vendor/: @msgpack/msgpack $MSGPACK_VERSION, @noble/hashes $NOBLE_HASHES_VERSION"
fi
