#!/usr/bin/python3
"""Checks the monitoring files against what `check --format openmetrics` really prints.

Usage: check-monitoring.py MONITORING_DIR METRICS_FILE

Every metric the alert rules (nats-mqtt-doctor.rules.yml) and the Grafana dashboard
(nats-mqtt-doctor.grafana.json) query must be a family of METRICS_FILE (the command's output), and every
label they match on must be one of that family's labels. `promtool check rules` checks the rules' syntax
(the test runs it too). Prints one line per problem and "N passed, M failed"; exit 1 on any problem.
"""
import json
import re
import sys

from prometheus_client.openmetrics.parser import text_string_to_metric_families

METRIC = re.compile(r"\b(mqttdoctor_[a-z_]+)\b(\{[^}]*\})?")
LABEL = re.compile(r"([a-zA-Z_][a-zA-Z0-9_]*)\s*(=~|!~|!=|=)")


def queries(directory):
    """Every PromQL expression of the rules and the dashboard, with where it comes from."""
    out = []
    with open(f"{directory}/nats-mqtt-doctor.rules.yml", encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            match = re.match(r"\s*expr:\s*(.+)$", line)
            if match:
                out.append((f"rules.yml:{number}", match.group(1)))
    with open(f"{directory}/nats-mqtt-doctor.grafana.json", encoding="utf-8") as f:
        dashboard = json.load(f)
    for panel in dashboard["panels"]:
        for target in panel.get("targets", []):
            out.append((f"dashboard panel \"{panel['title']}\"", target["expr"]))
    return out


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    with open(sys.argv[2], encoding="utf-8") as f:
        families = {}
        for family in text_string_to_metric_families(f.read()):
            labels = families.setdefault(family.name, set())
            for sample in family.samples:
                labels.update(sample.labels)
    passed = failed = 0
    for where, expr in queries(sys.argv[1]):
        used = METRIC.findall(expr)
        if not used:
            print(f"{where}: no mqttdoctor_ metric in {expr!r}")
            failed += 1
            continue
        for name, matchers in used:
            if name not in families:
                print(f"{where}: {name} is not printed by check --format openmetrics")
                failed += 1
                continue
            unknown = [label for label, _ in LABEL.findall(matchers or "") if label not in families[name]]
            if unknown:
                print(f"{where}: {name} has no label {', '.join(unknown)}")
                failed += 1
                continue
            passed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
