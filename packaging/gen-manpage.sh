#!/usr/bin/env bash
# Writes rdmagw(1) (roff, gzipped reproducibly) from the binary's own help:
# `rdmagw --help` and `rdmagw <command> --help` for every command that help
# lists, so the man page cannot drift from what the program says.
#   gen-manpage.sh BINARY VERSION OUT.1.gz
set -euo pipefail
bin=$1 version=$2 out=$3

# roff escaping for literal text: backslashes, minus signs, and a leading
# dot or quote (which roff would read as a request).
esc() { sed -e 's/\\/\\e/g' -e 's/-/\\-/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"; }

main_help=$("$bin" --help)
# The commands are the first word of each "  name ..." line in the
# "commands:" block of the main help (a line that starts deeper is a
# continuation).
commands=$(printf '%s\n' "$main_help" | awk '
  /^commands:/ {on=1; next}
  on && /^[^ ]/ {on=0}
  on && /^  [a-z]/ {print $1}' | sort -u)
[ -n "$commands" ] || { echo "gen-manpage: no commands found in '$bin --help'" >&2; exit 1; }

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
{
  echo ".TH RDMAGW 1 \"\" \"rdmagw $version\" \"User Commands\""
  echo ".SH NAME"
  echo "rdmagw \\- streaming\\-telemetry gateway for RoCE (RDMA) fabrics"
  echo ".SH SYNOPSIS"
  echo ".B rdmagw"
  echo ".I command"
  echo "[\\fIoptions\\fR]"
  echo ".SH DESCRIPTION"
  echo "rdmagw reads RDMA hosts, Nexus switches and ESXi hosts (sysfs, SIOCETHTOOL,"
  echo "SSH, gNMI) and serves their counters to Prometheus, SNMP (an AgentX subagent"
  echo "of snmpd) and gNMI subscribers."
  echo ".PP"
  echo ".nf"
  printf '%s\n' "$main_help" | esc
  echo ".fi"
  echo ".SH COMMANDS"
  for c in $commands; do
    echo ".SS $c"
    echo ".nf"
    "$bin" "$c" --help | esc
    echo ".fi"
  done
  echo ".SH FILES"
  echo ".TP"
  echo ".I /etc/rdmagw/rdmagw.yaml"
  echo "the configuration the packaged service runs with"
  echo ".TP"
  echo ".I /etc/rdmagw/targets.d/"
  echo "more targets, one YAML file per target or group, re\\-read on reload"
  echo ".TP"
  echo ".I /var/lib/rdmagw/"
  echo "state kept across restarts (the SNMP ifIndex map)"
  echo ".TP"
  echo ".I /usr/share/doc/rdmagw/operate.md"
  echo "installing and operating the service"
  echo ".SH SEE ALSO"
  echo ".BR systemctl (1),"
  echo ".BR snmpd.conf (5)"
} > "$tmp"
gzip -9n < "$tmp" > "$out"
