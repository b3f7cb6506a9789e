#!/usr/bin/env python3
"""Validate JSON documents against JSON Schemas (2020-12), one case per input line.

Input (the JSONL file given as argument, or stdin), one JSON object per line:
  {"label": "...", "schema": "Schemas/x.schema.json", "ref": "#/$defs/y" or "", "instance": <any JSON>}
Output (stdout), one line per case, in order:
  {"label": "...", "valid": true|false, "errors": ["..."]}
Used by Sources/TestSupport/SchemaValidation.swift: one process per test run (docs/testing.md#witnesses).
"""
import argparse
import json
import os
import sys

import jsonschema


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", default=".", help="package root that schema paths are relative to")
    parser.add_argument("cases", nargs="?", help="JSONL file of cases (default: stdin)")
    args = parser.parse_args()
    source = open(args.cases, encoding="utf-8") if args.cases else sys.stdin
    schemas = {}
    for raw in source:
        raw = raw.strip()
        if not raw:
            continue
        case = json.loads(raw)
        path = case["schema"]
        if path not in schemas:
            with open(os.path.join(args.root, path), encoding="utf-8") as handle:
                schema = json.load(handle)
            jsonschema.Draft202012Validator.check_schema(schema)
            schemas[path] = schema
        schema = schemas[path]
        ref = case.get("ref") or ""
        if ref:
            # Validate against one definition while keeping the file's $defs resolvable.
            schema = {"$schema": schema.get("$schema"), "$defs": schema.get("$defs", {}), "$ref": ref}
        validator = jsonschema.Draft202012Validator(schema)
        errors = [f"{'/'.join(map(str, e.absolute_path)) or '<root>'}: {e.message}"
                  for e in validator.iter_errors(case["instance"])]
        print(json.dumps({"label": case.get("label", ""), "valid": not errors, "errors": errors}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
