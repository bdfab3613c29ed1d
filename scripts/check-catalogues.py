#!/usr/bin/python3
"""The finding catalogue and the log catalogue agree.

Checks src/diagnosis/findingcatalogue.json against its schema, and against logcatalogue.json:
  - every line a finding explains is a template of the log catalogue, and every cause key a cause of it;
  - explaining such a line leads back to the finding: the log catalogue gives the finding's code for that
    template and cause (as LogCatalogue::explain chooses codes);
  - every finding code the log catalogue names is a code of the finding catalogue.
Exits 1 with one line per disagreement.
"""
import json
import sys
from pathlib import Path

import jsonschema

root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent
diag = root / "src" / "diagnosis"
findings = json.loads((diag / "findingcatalogue.json").read_text())
schema = json.loads((diag / "findingcatalogue.schema.json").read_text())
logs = json.loads((diag / "logcatalogue.json").read_text())

problems = []
validator = jsonschema.Draft202012Validator(schema)
for error in sorted(validator.iter_errors(findings), key=lambda e: list(e.path)):
    problems.append("findingcatalogue.json at /%s: %s" % ("/".join(str(p) for p in error.path), error.message))

entries = {e["id"]: e for e in logs["entries"]}
causes = {c["key"]: c for c in logs["causes"]}
codes = [f.get("code") for f in findings.get("findings", [])]


def codes_of(entry, cause_key):
    """The codes explain gives a line of `entry` whose error is `cause_key` (none: any error)."""
    own = entry.get("codes", [])
    by_cause = entry.get("codes_by_cause", {})
    if cause_key:
        if cause_key in by_cause:
            return set(by_cause[cause_key])
        if entry.get("cause_decides") and cause_key in causes:
            return set(causes[cause_key].get("codes", []))
        return set(own)
    # No particular error: whatever the line's own error can lead to.
    out = set(own)
    for listed in by_cause.values():
        out |= set(listed)
    if entry.get("cause_key") == "timeout":
        for key in ("timeout:store", "timeout:api"):
            out |= set(causes[key].get("codes", []))
    elif entry.get("cause_key") in causes:
        out |= set(causes[entry["cause_key"]].get("codes", []))
    return out


for f in findings.get("findings", []):
    for line in f.get("explains", []):
        entry = entries.get(line.get("line"))
        if entry is None:
            problems.append("%s explains %s, which is not a template of logcatalogue.json" % (f["code"], line.get("line")))
            continue
        cause = line.get("cause", "")
        if cause and cause not in causes:
            problems.append("%s explains %s with cause %s, which is not a cause of logcatalogue.json" % (f["code"], line["line"], cause))
            continue
        if f["code"] not in codes_of(entry, cause):
            problems.append("%s explains %s%s, but explaining that line gives %s" % (
                f["code"], line["line"], " (" + cause + ")" if cause else "", sorted(codes_of(entry, cause)) or "no code"))

named = set()
for e in logs["entries"]:
    named |= set(e.get("codes", []))
    for listed in e.get("codes_by_cause", {}).values():
        named |= set(listed)
for c in logs["causes"]:
    named |= set(c.get("codes", []))
for code in sorted(named - set(codes)):
    problems.append("logcatalogue.json names %s, which the finding catalogue does not have" % code)

for p in problems:
    print(p)
if problems:
    sys.exit(1)
print("catalogues agree: %d findings, %d templates, %d causes" % (len(codes), len(entries), len(causes)))
