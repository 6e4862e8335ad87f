#!/usr/bin/env bash
# Builds the Windows installer of jiaohao.exe with msitools' wixl (Debian:
# apt-get install wixl msitools):
#
#   scripts/msi/build.sh JIAOHAO.EXE VERSION OUT.msi
#
# VERSION is three numbers (FyneApp.toml's Version); scripts/package.sh
# calls this for dist/, and the wine tests for a higher version to upgrade to.
set -euo pipefail

[ $# -eq 3 ] || { echo "usage: $0 JIAOHAO.EXE VERSION OUT.msi" >&2; exit 2; }
exe=$(realpath "$1") version=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] ||
  { echo "msi: version $version is not three numbers" >&2; exit 2; }
for tool in wixl msibuild; do
  command -v "$tool" >/dev/null ||
    { echo "msi: $tool not found (Debian: apt-get install wixl msitools)" >&2; exit 1; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/jiaohao-msi.XXXXXX")
trap 'rm -rf "$work"' EXIT
# wixl finds the files the package holds relative to where it runs.
cp "$exe" "$work/jiaohao.exe"
(cd "$work" && wixl -a x64 -D Version="$version" -o jiaohao.msi "$here/jiaohao.wxs")

# wixl (0.101) keeps the database in code page 0 and drops every character
# that is not ASCII. Switch it to GBK (936), the code page of Chinese
# Windows that every Windows can read, then give the names people see their
# Chinese text; msibuild converts what it writes to the database's code page.
printf '\r\n\r\n936\t_ForceCodepage\r\n' >"$work/_ForceCodepage.idt"
shortcut() { echo "UPDATE Shortcut SET Name='$2', Description='$3' WHERE Shortcut='$1'"; }
msibuild "$work/jiaohao.msi" -i "$work/_ForceCodepage.idt" \
  -q "UPDATE Property SET Value='叫号 Jiaohao' WHERE Property='ProductName'" \
  -q "UPDATE Directory SET DefaultDir='叫号 Jiaohao' WHERE Directory='MenuDir'" \
  -q "$(shortcut MenuMain '叫号 Jiaohao' '本机的角色，首次启动时打开设置 (this PC role, or its setup)')" \
  -q "$(shortcut MenuKiosk '取号机' '取号机 Kiosk')" \
  -q "$(shortcut MenuCaller '窗口叫号' '窗口叫号 Window caller')" \
  -q "$(shortcut MenuScreen '大厅屏幕' '大厅屏幕 Hall screen')" \
  -q "$(shortcut MenuCounter '窗口屏' '窗口屏 Window screen')" \
  -q "$(shortcut MenuEvaluator '评价器' '评价器 Rating pad')" \
  -q "$(shortcut MenuManager '管理端' '管理端 Manager')" \
  -q "UPDATE Feature SET Title='开机自动启动 Start at logon' WHERE Feature='Autostart'"

# wixl numbers custom actions by its own reckoning; the removal of the data
# folder is deferred, so it must run inside the install script, after the
# files are gone and before InstallFinalize.
msibuild "$work/jiaohao.msi" \
  -q "UPDATE InstallExecuteSequence SET Sequence=1010 WHERE Action='FindCmd'" \
  -q "UPDATE InstallExecuteSequence SET Sequence=6500 WHERE Action='RemoveData'"

# A rebuilt package of the same version replaces the installed one instead
# of installing beside it (WiX's AllowSameVersionUpgrades): the upgrade
# search includes its maximum (msidbUpgradeAttributesVersionMaxInclusive).
# Attributes is part of the Upgrade table's key, so the row is replaced.
code=$(msiinfo export "$work/jiaohao.msi" Property | sed -n 's/^UpgradeCode\t\(.*\)\r\?$/\1/p' | tr -d '\r')
[ -n "$code" ] || { echo "msi: no UpgradeCode in the package" >&2; exit 1; }
msibuild "$work/jiaohao.msi" \
  -q "DELETE FROM Upgrade WHERE ActionProperty='WIX_UPGRADE_DETECTED'" \
  -q "INSERT INTO Upgrade (UpgradeCode, VersionMax, Attributes, ActionProperty) VALUES ('$code', '$version', 513, 'WIX_UPGRADE_DETECTED')"

mv -f "$work/jiaohao.msi" "$out"
