#!/usr/bin/env bash
# The Debian package as users get it (CTest package_deb; `make test` runs it):
#   check-package.sh BUILD_DIR PACKAGE VERSION APPSTREAM_ID
# builds the .deb from BUILD_DIR with CPack, runs lintian (any error fails), asserts the package's
# file list, validates its desktop entry and AppStream metainfo, unpacks it into a throwaway root
# (dpkg -x) and runs the installed programs from there: the CLI's --version and --help, the GUI's
# --version and an offscreen start, the man pages through man, and the bash completion. A missing
# tool is a failure, never a skip.
set -uo pipefail
build=$1 package=$2 version=$3 appstream_id=$4
work=$(mktemp -d "${TMPDIR:-/tmp}/package-check.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

for tool in cpack dpkg-deb dpkg-shlibdeps lintian desktop-file-validate appstreamcli man bash timeout; do
    command -v "$tool" >/dev/null || { echo "FAIL: $tool is missing (make deps installs it)"; exit 1; }
done

# --- Build ---------------------------------------------------------------------------------------
if ! cpack --config "$build/CPackConfig.cmake" -G DEB -B "$work/out" >"$work/cpack.log" 2>&1; then
    cat "$work/cpack.log"; echo "FAIL: cpack"; exit 1
fi
deb=$(ls "$work"/out/"${package}"_"${version}"_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || { cat "$work/cpack.log"; echo "FAIL: no ${package}_${version}_*.deb"; exit 1; }
pass "built $(basename "$deb")"

# --- Control fields -------------------------------------------------------------------------------
control=$(dpkg-deb -f "$deb")
echo "$control"
for field in "Package: $package" "Version: $version" "Section: net" "Priority: optional"; do
    grep -qx "$field" <<<"$control" && pass "control: $field" || fail "control: no \"$field\""
done
grep -q '^Maintainer: .\+ <.\+@.\+>$' <<<"$control" && pass "control: Maintainer" || fail "control: no Maintainer with an address"
depends=$(dpkg-deb -f "$deb" Depends)
for lib in 'libqt6core6' 'libqt6widgets6' 'libnats3' 'libqt6keychain1' 'libmosquitto1' 'libc6'; do
    grep -q "\b$lib" <<<"$depends" && pass "depends on $lib (shlibdeps)" || fail "Depends lacks $lib: $depends"
done
grep -q '\blibqt6svg6\b' <<<"$depends" && pass "depends on libqt6svg6 (the icons are SVG)" || fail "Depends lacks libqt6svg6: $depends"
grep -q '\blibqt6sql6-sqlite\b' <<<"$depends" && pass "depends on libqt6sql6-sqlite (the history database)" || fail "Depends lacks libqt6sql6-sqlite: $depends"
[ "$(dpkg-deb -f "$deb" Description | wc -l)" -ge 5 ] && pass "long description" || fail "no long description"

# --- Files ----------------------------------------------------------------------------------------
dpkg-deb -c "$deb" | awk '{print $NF}' | sed 's|^\./|/|' >"$work/files"
expect=(
    /usr/bin/nats-mqtt-doctor
    /usr/bin/nats-mqtt-doctor-cli
    /usr/share/applications/nats-mqtt-doctor.desktop
    /usr/share/icons/hicolor/scalable/apps/nats-mqtt-doctor.svg
    "/usr/share/metainfo/$appstream_id.metainfo.xml"
    /usr/share/man/man1/nats-mqtt-doctor.1.gz
    /usr/share/man/man1/nats-mqtt-doctor-cli.1.gz
    /usr/share/bash-completion/completions/nats-mqtt-doctor-cli
    "/usr/share/doc/$package/copyright"
    "/usr/share/doc/$package/changelog.gz"
    "/usr/share/doc/$package/cli.md"
    "/usr/share/doc/$package/CHANGELOG.md"
    "/usr/share/$package/schema/check.schema.json"
    "/usr/share/$package/schema/common.schema.json"
    "/usr/share/$package/schema/error.schema.json"
    "/usr/share/$package/monitoring/nats-mqtt-doctor.rules.yml"
    "/usr/share/$package/monitoring/nats-mqtt-doctor.grafana.json"
    "/usr/share/$package/monitoring/nats-mqtt-doctor-metrics.service"
    "/usr/share/$package/monitoring/nats-mqtt-doctor-metrics.timer"
    "/usr/lib/systemd/user/nats-mqtt-doctor-recorder@.service"
)
for size in 16 22 24 32 48 64 128 256 512; do
    expect+=("/usr/share/icons/hicolor/${size}x${size}/apps/nats-mqtt-doctor.png")
done
for f in "${expect[@]}"; do
    grep -qx "$f" "$work/files" && pass "file $f" || fail "missing $f"
done
# Nothing else than the programs, their data and documentation: no tests, demo, headers or libraries.
unexpected=$(grep -v -e '/$' -e '^/usr/bin/nats-mqtt-doctor\(-cli\)\?$' -e '^/usr/share/\(applications\|icons\|metainfo\|man\|bash-completion\|doc\)/' -e "^/usr/share/$package/schema/[a-z-]*\.schema\.json$" -e "^/usr/share/$package/monitoring/nats-mqtt-doctor[a-z.-]*$" -e "^/usr/lib/systemd/user/nats-mqtt-doctor-recorder@\\.service$" "$work/files")
[ -z "$unexpected" ] && pass "no other files" || fail "unexpected files: $unexpected"

# --- lintian --------------------------------------------------------------------------------------
lintian --allow-root --tag-display-limit 0 "$deb" >"$work/lintian.log" 2>&1
cat "$work/lintian.log"
if grep -q '^E: ' "$work/lintian.log"; then fail "lintian reports errors"; else pass "lintian: no errors"; fi

# --- Unpacked into a throwaway root ---------------------------------------------------------------
root="$work/root"
dpkg -x "$deb" "$root" || { echo "FAIL: dpkg -x"; exit 1; }
desktop-file-validate "$root/usr/share/applications/nats-mqtt-doctor.desktop" && pass "desktop-file-validate" \
    || fail "desktop-file-validate"
appstreamcli validate --no-net "$root/usr/share/metainfo/$appstream_id.metainfo.xml" && pass "appstreamcli validate" \
    || fail "appstreamcli validate"
# The license: Apache-2.0, in the copyright file and the AppStream metainfo alike.
grep -qx 'License: Apache-2.0' "$root/usr/share/doc/$package/copyright" && pass "copyright: Apache-2.0" \
    || fail "copyright does not name the Apache-2.0 license"
grep -q '<project_license>Apache-2.0</project_license>' "$root/usr/share/metainfo/$appstream_id.metainfo.xml" \
    && pass "metainfo: project_license Apache-2.0" || fail "metainfo has no project_license Apache-2.0"
for size in 16 256; do
    png="$root/usr/share/icons/hicolor/${size}x${size}/apps/nats-mqtt-doctor.png"
    head -c 24 "$png" | od -An -tx1 | tr -d ' \n' | grep -q "^89504e470d0a1a0a.\{16\}$(printf '%08x%08x' "$size" "$size")" \
        && pass "icon ${size}x${size} is a ${size}x${size} PNG" || fail "icon $png is not a ${size}x${size} PNG"
done

cli="$root/usr/bin/nats-mqtt-doctor-cli"
gui="$root/usr/bin/nats-mqtt-doctor"
out=$("$cli" --version) || fail "cli --version exits $?"
echo "$out"
grep -qx "nats-mqtt-doctor-cli $version" <<<"$out" && pass "cli --version names $version" || fail "cli --version: $out"
grep -Eq '^commit: ([0-9a-f]{12}(-modified)?|unknown)$' <<<"$out" && pass "cli --version names the commit" || fail "cli --version: no commit line"
grep -Eq '^Qt: 6\.' <<<"$out" && grep -Eq '^nats\.c: [0-9]+\.[0-9]+' <<<"$out" && pass "cli --version names Qt and nats.c" \
    || fail "cli --version: no Qt or nats.c line"
out=$("$cli" --help) || fail "cli --help exits $?"
grep -q '^Commands:' <<<"$out" && grep -q '^  check' <<<"$out" && pass "cli --help lists the commands" || fail "cli --help: $out"

export QT_QPA_PLATFORM=offscreen XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data" XDG_RUNTIME_DIR="$work/runtime"
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
out=$("$gui" --version 2>"$work/gui.err") || fail "gui --version exits $?: $(cat "$work/gui.err")"
grep -qx "nats-mqtt-doctor $version" <<<"$out" && grep -Eq '^commit: ' <<<"$out" && pass "gui --version" || fail "gui --version: $out"
# Started offscreen without options it opens the connection dialog and waits: still running after 5 s is a start.
timeout 5 "$gui" >"$work/gui.out" 2>"$work/gui.err"; rc=$?
[ "$rc" = 124 ] && pass "gui starts offscreen (still running after 5 s)" || fail "gui ended with $rc: $(cat "$work/gui.err")"
if grep -Eiq 'could not (load|find) the qt platform plugin|error while loading shared libraries' "$work/gui.err"; then
    fail "gui start: $(cat "$work/gui.err")"
fi

# --- Man pages ------------------------------------------------------------------------------------
for page in nats-mqtt-doctor nats-mqtt-doctor-cli; do
    file="$root/usr/share/man/man1/$page.1.gz"
    text=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$file" 2>"$work/man.err" | col -bx) || fail "man $page exits $?"
    [ -s "$work/man.err" ] && fail "man $page warns: $(cat "$work/man.err")"
    grep -q "^NAME" <<<"$text" && grep -Eq "^ +$page +- +[a-z]" <<<"$text" && pass "man $page renders with NAME" || fail "man $page: no NAME line"
done
# Every command of the installed CLI has its section in the installed man page.
mantext=$(LC_ALL=C.UTF-8 MANWIDTH=200 man -l "$root/usr/share/man/man1/nats-mqtt-doctor-cli.1.gz" 2>/dev/null | col -bx)
commands=$("$cli" --help | awk '/^Commands:/{on=1; next} /^$/{on=0} on && /^  [a-z]/{print $1}')
[ -n "$commands" ] || fail "no commands in --help"
for c in $commands; do
    grep -Eq "^   $c( |$)" <<<"$mantext" && pass "man page has command $c" || fail "man page lacks command $c"
done

# --- Bash completion --------------------------------------------------------------------------------
complete_words() {
    bash --norc --noprofile -c '
        source "$1"; shift
        COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
        _nats_mqtt_doctor_cli
        printf "%s\n" "${COMPREPLY[@]}"' complete "$root/usr/share/bash-completion/completions/nats-mqtt-doctor-cli" "$@"
}
unit="$root/usr/lib/systemd/user/nats-mqtt-doctor-recorder@.service"
[ -f "$unit" ] && grep -q '^ExecStart=/usr/bin/nats-mqtt-doctor-cli .* record ' "$unit" \
    && pass "systemd user unit of the recorder" || fail "no recorder unit at /usr/lib/systemd/user"
got=$(complete_words nats-mqtt-doctor-cli che)
[ "$got" = check ] && pass "completion: che -> check" || fail "completion of \"che\": $got"
got=$(complete_words nats-mqtt-doctor-cli ch | tr '\n' ' ')
[ "$got" = "check changes " ] && pass "completion: ch -> check changes" || fail "completion of \"ch\": $got"
got=$(complete_words nats-mqtt-doctor-cli --server nats://x:4222 check --all-a)
[ "$got" = --all-accounts ] && pass "completion: check --all-a -> --all-accounts" || fail "completion of \"check --all-a\": $got"
got=$(complete_words nats-mqtt-doctor-cli sessions --ver)
[ "$got" = --version ] && pass "completion: global option after a command" || fail "completion of \"sessions --ver\": $got"
got=$(complete_words nats-mqtt-doctor-cli sessions --all-a)
[ -z "$got" ] && pass "completion: no check option for sessions" || fail "completion offered $got for sessions"
for c in $commands; do
    got=$(complete_words nats-mqtt-doctor-cli "$c")
    grep -qx "$c" <<<"$got" || fail "completion lacks command $c"
done

echo "== $failures failure(s)"
[ "$failures" = 0 ]
