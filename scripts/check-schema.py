#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Validate stormark JSON results against docs/stormark.schema.json (draft
# 2020-12). Usage: check-schema.py SCHEMA FILE...; prints the first problem
# of each bad file; exit 0 all valid, 1 some invalid, 77 jsonschema missing.
import json
import sys

try:
    from jsonschema import Draft202012Validator
except ImportError as e:
    print(f"SKIP: python3-jsonschema cannot be imported ({e}); apt-get install python3-jsonschema")
    sys.exit(77)

schema = json.load(open(sys.argv[1]))
Draft202012Validator.check_schema(schema)
v = Draft202012Validator(schema)
bad = 0
for path in sys.argv[2:]:
    errs = sorted(v.iter_errors(json.load(open(path))), key=lambda e: list(e.path))
    if errs:
        bad += 1
        e = errs[0]
        where = "/".join(str(p) for p in e.path) or "(top)"
        print(f"{path}: {where}: {e.message[:300]} ({len(errs)} problem(s))")
sys.exit(1 if bad else 0)
