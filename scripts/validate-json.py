#!/usr/bin/env python3
"""Check nats-mqtt-doctor-cli --json outputs against their published JSON Schemas (docs/schema/).

Usage: validate-json.py SCHEMA_DIR FILE...

Every *.schema.json of SCHEMA_DIR is loaded and checked against the draft 2020-12 meta-schema; $refs
between them ("../common#/$defs/Finding") resolve among those files, never over the network. Each FILE
is one JSON document, or JSON Lines (a name ending in .jsonl, or several lines each a JSON object).
Each object is validated against the schema whose $id equals its "schema" member
("nats-mqtt-doctor/check/1"); an object without one, or naming no schema of SCHEMA_DIR, fails.

Prints per object "FILE[:LINE]: ok <id>" or one "FILE[:LINE]: <id>: <path>: <message>" per error, then
"N passed, M failed". Exit 0 when every schema and every object is valid, 1 otherwise, 2 on usage.
Works with jsonschema 4.10 (Debian 12's python3-jsonschema: RefResolver) and later (referencing).
"""

import json
import sys
from pathlib import Path
from urllib.parse import urljoin

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

# Where the schemas' relative $ids are rooted for RefResolver, which needs absolute URIs to resolve
# relative ones; .invalid never resolves, and remote resolution is refused anyway.
OFFLINE_BASE = "https://nats-mqtt-doctor.invalid/schema/"
MAX_MESSAGE = 300


def load_schemas(schema_dir):
    """({$id: schema} of every valid schema file, [problems])."""
    schemas, problems = {}, []
    files = sorted(Path(schema_dir).glob("*.schema.json"))
    if not files:
        problems.append(f"{schema_dir}: no *.schema.json files")
    for path in files:
        try:
            schema = json.loads(path.read_text(encoding="utf-8"))
            Draft202012Validator.check_schema(schema)
        except (OSError, ValueError) as e:
            problems.append(f"{path}: cannot read the schema: {e}")
            continue
        except SchemaError as e:
            problems.append(f"{path}: invalid schema: {json_path(e.absolute_path)}: {e.message}")
            continue
        sid = schema.get("$id")
        if not isinstance(sid, str) or sid in schemas:
            problems.append(f"{path}: missing or duplicate $id {sid!r}")
            continue
        output = schema.get("properties", {}).get("schema", {}).get("const")
        if output is not None and (output != sid or sid.split("/")[1:2] != [path.name[: -len(".schema.json")]]):
            problems.append(f"{path}: $id {sid!r}, its \"schema\" const {output!r} and the file name disagree")
        schemas[sid] = schema
    return schemas, problems


def validator_factory(schemas):
    """A function $id -> validator whose $refs resolve among `schemas`, offline."""
    try:  # jsonschema 4.18 and later
        from referencing import Registry, Resource

        registry = Registry().with_resources((sid, Resource.from_contents(s)) for sid, s in schemas.items())
        Draft202012Validator({}, registry=registry)  # TypeError before 4.18
        return lambda sid: Draft202012Validator(schemas[sid], registry=registry)
    except (ImportError, TypeError):
        pass
    from jsonschema import RefResolver
    from jsonschema.exceptions import RefResolutionError

    class OfflineResolver(RefResolver):
        def resolve_remote(self, uri):
            raise RefResolutionError(f"{uri} is none of the schemas (no network access)")

    store = {urljoin(OFFLINE_BASE, sid): s for sid, s in schemas.items()}
    return lambda sid: Draft202012Validator(schemas[sid], resolver=OfflineResolver(OFFLINE_BASE, schemas[sid], store=store))


def documents(path):
    """[(line number or None, the parsed value, or a ValueError saying why there is none)] of one file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        return [(None, ValueError(f"cannot read: {e}"))]
    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if not lines:
        return [(None, ValueError("no JSON object in the file"))]
    whole_error = None
    if not str(path).endswith(".jsonl"):
        try:
            return [(None, json.loads(text))]
        except ValueError as e:
            whole_error = ValueError(f"not JSON: {e}")
    parsed = []
    for n, line in lines:
        try:
            parsed.append((n, json.loads(line)))
        except ValueError as e:
            parsed.append((n, ValueError(f"not JSON: {e}")))
    if whole_error and not all(isinstance(o, dict) for _, o in parsed):
        return [(None, whole_error)]  # neither one document nor JSON Lines: say why once
    return parsed


def json_path(parts):
    """$.findings[0].severity for the path of an error."""
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in parts)


def short(message):
    return message if len(message) <= MAX_MESSAGE else message[: MAX_MESSAGE - 3] + "..."


def closest(error):
    """The deepest error of the anyOf/oneOf branches whose type (or const) fits the instance."""
    while error.context:
        branches = {}
        for sub in error.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        fitting = [errs for errs in branches.values() if not any(s.validator in ("type", "const") and not s.relative_path for s in errs)]
        error = max((s for errs in fitting or branches.values() for s in errs), key=lambda s: len(s.absolute_path))
    return error


def check(obj, outputs, make_validator):
    """(id, [(path, message)]) of one object: no errors when it is valid."""
    if not isinstance(obj, dict):
        return "(no schema)", [("$", "not a JSON object")]
    sid = obj.get("schema")
    if sid is None:
        return "(no schema)", [("$", 'the object has no "schema" member')]
    if not isinstance(sid, str) or sid not in outputs:
        return str(sid), [("$.schema", "no schema of SCHEMA_DIR has this $id")]
    errors = []
    for e in sorted(make_validator(sid).iter_errors(obj), key=lambda e: list(map(str, e.absolute_path))):
        message = e.message
        if e.context:  # no branch of an anyOf/oneOf fits: the one that came closest says why
            best = closest(e)
            message = f"no {e.validator} branch fits; closest: {json_path(best.absolute_path)}: {short(best.message)}"
        errors.append((json_path(e.absolute_path), short(message)))
    return sid, errors


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    schemas, problems = load_schemas(argv[1])
    for p in problems:
        print(p)
    # An output's schema pins its own id in "schema"; common.schema.json is no output.
    outputs = {sid for sid, s in schemas.items() if s.get("properties", {}).get("schema", {}).get("const") == sid}
    make_validator = validator_factory(schemas)
    passed = failed = 0
    for path in argv[2:]:
        for line, obj in documents(path):
            where = path if line is None else f"{path}:{line}"
            if isinstance(obj, ValueError):
                sid, errors = "(no schema)", [("$", str(obj))]
            else:
                sid, errors = check(obj, outputs, make_validator)
            if errors:
                failed += 1
                for error_path, message in errors:
                    print(f"{where}: {sid}: {error_path}: {message}")
            else:
                passed += 1
                print(f"{where}: ok {sid}")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 and not problems else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
