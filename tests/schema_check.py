#!/usr/bin/python3
"""schema_check.py - validate structfit's JSON documents against
doc/structfit.schema.json (JSON Schema draft 2020-12, Debian's
python3-jsonschema).

    schema_check.py SCHEMA [--all] FILE...

Each FILE is one document.  It is checked against the part of the schema
its "command" (or "error") names, so a failure says which field of which
document is wrong, not just that no branch of the top-level oneOf fits;
then against the whole schema.  With --all, every command's document and
the error document must have been among the FILEs: a test that forgets a
command fails.  Exit 0 when every document is valid, 1 otherwise, 2 when
the schema itself is not a valid schema or jsonschema is missing.
"""
import json
import sys

try:
    from jsonschema import Draft202012Validator
except ImportError:
    print("schema_check: python3-jsonschema is not installed", file=sys.stderr)
    sys.exit(2)

COMMANDS = ("show", "holes", "suggest", "fit", "classes", "check", "diff")


def part(schema, name):
    """The schema with its top-level oneOf narrowed to $defs/name."""
    s = dict(schema)
    s["oneOf"] = [{"$ref": "#/$defs/" + name}]
    return s


def main(argv):
    schema_path, files = argv[1], argv[2:]
    want_all = "--all" in files
    files = [f for f in files if f != "--all"]
    with open(schema_path) as f:
        schema = json.load(f)
    try:
        Draft202012Validator.check_schema(schema)
    except Exception as e:  # SchemaError
        print("schema_check: %s is not a valid schema: %s" % (schema_path, e))
        return 2
    whole = Draft202012Validator(schema)
    seen, bad = set(), 0
    for path in files:
        try:
            with open(path) as f:
                doc = json.load(f)
        except Exception as e:
            print("%s: not JSON: %s" % (path, e))
            bad += 1
            continue
        kind = "error" if isinstance(doc, dict) and "error" in doc else (
            doc.get("command") if isinstance(doc, dict) else None)
        if kind not in COMMANDS + ("error",):
            print("%s: no known \"command\" (%r)" % (path, kind))
            bad += 1
            continue
        seen.add(kind)
        v = Draft202012Validator(part(schema, kind + "_document"))
        errs = sorted(v.iter_errors(doc), key=lambda e: list(e.absolute_path))
        errs = errs or list(whole.iter_errors(doc))
        for e in errs[:5]:
            # the deepest reason, not "is not valid under any of the given schemas"
            while e.context:
                e = min(e.context, key=lambda c: len(list(c.absolute_path)) * -1)
            where = "/".join(str(p) for p in e.absolute_path) or "(top)"
            print("%s: %s: %s" % (path, where, e.message[:300]))
        bad += bool(errs)
    if want_all:
        for k in COMMANDS + ("error",):
            if k not in seen:
                print("schema_check: no %s document among the files" % k)
                bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
