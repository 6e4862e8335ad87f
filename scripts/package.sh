#!/usr/bin/env bash
# Packages jiaohao for the branch's PCs with Fyne's own tool (fyne.io/tools,
# pinned in go.mod as a tool) and FyneApp.toml:
#
#   dist/jiaohao-VERSION-windows-amd64.exe   icon, version and names embedded
#   dist/jiaohao-VERSION-windows-amd64.msi   its installer (scripts/msi/, wixl)
#   dist/jiaohao-VERSION-linux-amd64.tar.xz  binary, icon, desktop entry, Makefile
#
# The Windows executable is cross-built with Debian's mingw-w64.
#
# `fyne package` writes into its source folder (a generated metadata file,
# a .syso resource, the build number bumped in FyneApp.toml), so it runs on
# a copy of the tree: the working tree stays clean and a Linux build started
# meanwhile never links a Windows resource.
#
# Usage: scripts/package.sh [--no-release]    (DIST_DIR overrides dist/)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
dist=${DIST_DIR:-$root/dist}
release=--release
case "${1:-}" in
  "") ;;
  --no-release) release= ;;
  *) echo "usage: $0 [--no-release]" >&2; exit 2 ;;
esac

command -v x86_64-w64-mingw32-gcc >/dev/null ||
  { echo "package: x86_64-w64-mingw32-gcc not found (Debian: apt-get install mingw-w64)" >&2; exit 1; }
command -v xz >/dev/null ||
  { echo "package: xz not found (Debian: apt-get install xz-utils)" >&2; exit 1; }
command -v wixl >/dev/null && command -v msibuild >/dev/null ||
  { echo "package: wixl or msibuild not found (Debian: apt-get install wixl msitools)" >&2; exit 1; }

version=$(sed -n 's/^[[:space:]]*Version[[:space:]]*=[[:space:]]*"\(.*\)"/\1/p' "$root/FyneApp.toml")
[ -n "$version" ] || { echo "package: no Version in FyneApp.toml" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/jiaohao-package.XXXXXX")
trap 'rm -rf "$work"' EXIT
src=$work/src
mkdir -p "$src" "$dist"
tar -C "$root" --exclude=./.git --exclude=./dist --exclude=./zzwarm \
  --exclude='*.db' --exclude='*.db-wal' --exclude='*.db-shm' -cf - . | tar -C "$src" -xf -

cd "$src"
# fyne package bumps Build in FyneApp.toml after each run; both packages
# carry the version and build of the tree.
cp FyneApp.toml "$work/FyneApp.toml"
# The tool itself is built for this machine; only what it builds is crossed.
go build -o "$work/fyne" fyne.io/tools/cmd/fyne

echo "package: linux/amd64 $version"
GOOS=linux GOARCH=amd64 "$work/fyne" package --target linux $release
# fyne.io/tools v1.7.2 names the icon in the archive's Makefile without its
# .png, so `sudo make install` stops there: mend that one line.
mkdir "$work/linux"
tar -C "$work/linux" -xJf ./*.tar.xz
sed -i '/^Icon := .*\.png"$/!s/^Icon := "\(.*\)"$/Icon := "\1.png"/' "$work"/linux/*/Makefile
(cd "$work/linux" && tar --owner=0 --group=0 -cJf "$dist/jiaohao-$version-linux-amd64.tar.xz" -- *)
rm -f ./*.tar.xz

echo "package: windows/amd64 $version"
cp "$work/FyneApp.toml" FyneApp.toml
# fyne adds -fstack-protector-strong and _FORTIFY_SOURCE to the C flags; on
# mingw their runtime is libssp, linked in statically so the .exe needs no
# extra DLL on the branch's PCs.
CGO_ENABLED=1 GOOS=windows GOARCH=amd64 CC=x86_64-w64-mingw32-gcc \
  CGO_LDFLAGS="${CGO_LDFLAGS:-} -l:libssp.a" \
  "$work/fyne" package --target windows $release
mv -f -- *.exe "$dist/jiaohao-$version-windows-amd64.exe"

# Windows Installer versions are three numbers.
msiversion=$version
while [ "$(echo "$msiversion" | tr -cd . | wc -c)" -lt 2 ]; do msiversion=$msiversion.0; done
echo "package: windows/amd64 installer $msiversion"
"$root/scripts/msi/build.sh" "$dist/jiaohao-$version-windows-amd64.exe" "$msiversion" \
  "$dist/jiaohao-$version-windows-amd64.msi"

ls -l "$dist"/jiaohao-"$version"-*
