"""schemacheck.py -- a small JSON Schema (draft 2020-12 subset) validator, stdlib only.

Covers the keywords the cfconform schemas use: $ref (local "#/..."), type, enum, const,
properties, required, additionalProperties, items, minItems, maxItems, uniqueItems,
minimum, minLength, pattern, anyOf, oneOf, allOf.  Annotations (title, description,
default, examples, $schema, $id) are ignored.

    errors = validate(instance, schema)         # [] when valid
    load_schemas(folder) -> {"init_ok": schema, ...}
"""

import json
import math
import os
import re

SCHEMA_DIR_ENV = "CFCONFORM_SCHEMAS"
DEFAULT_SCHEMA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "schemas")


def schema_dir():
    return os.environ.get(SCHEMA_DIR_ENV, DEFAULT_SCHEMA_DIR)


def load_schemas(folder=None):
    folder = folder or schema_dir()
    out = {}
    for name in sorted(os.listdir(folder)):
        if name.endswith(".json"):
            with open(os.path.join(folder, name), encoding="utf-8") as fh:
                out[name[:-5]] = json.load(fh)
    return out


def _is_type(v, t):
    if t == "object":
        return isinstance(v, dict)
    if t == "array":
        return isinstance(v, list)
    if t == "string":
        return isinstance(v, str)
    if t == "integer":
        if isinstance(v, bool):
            return False
        if isinstance(v, int):
            return True
        return isinstance(v, float) and math.isfinite(v) and v.is_integer()
    if t == "number":
        return isinstance(v, (int, float)) and not isinstance(v, bool) and \
            (not isinstance(v, float) or math.isfinite(v))
    if t == "boolean":
        return isinstance(v, bool)
    if t == "null":
        return v is None
    raise ValueError("unknown type %r" % t)


def _equal(a, b):
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return a == b


def _resolve(root, ref):
    if not ref.startswith("#"):
        raise ValueError("only local $ref supported: %r" % ref)
    node = root
    for part in ref[1:].split("/"):
        if not part:
            continue
        part = part.replace("~1", "/").replace("~0", "~")
        node = node[part]
    return node


def validate(instance, schema, root=None, path=""):
    """Return a list of 'path: message' strings (empty when the instance is valid)."""
    root = schema if root is None else root
    errs = []
    if schema is True or schema == {}:
        return errs
    if schema is False:
        return ["%s: no value allowed" % (path or "/")]
    if "$ref" in schema:
        errs += validate(instance, _resolve(root, schema["$ref"]), root, path)
    where = path or "/"
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_is_type(instance, t) for t in types):
            return errs + ["%s: %r is not of type %s" % (where, instance, types)]
    if "const" in schema and not _equal(instance, schema["const"]):
        errs.append("%s: %r is not %r" % (where, instance, schema["const"]))
    if "enum" in schema and not any(_equal(instance, e) for e in schema["enum"]):
        errs.append("%s: %r is not one of %r" % (where, instance, schema["enum"]))
    if isinstance(instance, (int, float)) and not isinstance(instance, bool):
        if "minimum" in schema and instance < schema["minimum"]:
            errs.append("%s: %r < minimum %r" % (where, instance, schema["minimum"]))
        if "maximum" in schema and instance > schema["maximum"]:
            errs.append("%s: %r > maximum %r" % (where, instance, schema["maximum"]))
    if isinstance(instance, str):
        if "minLength" in schema and len(instance) < schema["minLength"]:
            errs.append("%s: shorter than %d" % (where, schema["minLength"]))
        if "maxLength" in schema and len(instance) > schema["maxLength"]:
            errs.append("%s: longer than %d" % (where, schema["maxLength"]))
        if "pattern" in schema and not re.search(schema["pattern"], instance):
            errs.append("%s: %r does not match %r" % (where, instance, schema["pattern"]))
    if isinstance(instance, list):
        if "minItems" in schema and len(instance) < schema["minItems"]:
            errs.append("%s: fewer than %d items" % (where, schema["minItems"]))
        if "maxItems" in schema and len(instance) > schema["maxItems"]:
            errs.append("%s: more than %d items" % (where, schema["maxItems"]))
        if schema.get("uniqueItems"):
            seen = []
            for item in instance:
                key = json.dumps(item, sort_keys=True)
                if key in seen:
                    errs.append("%s: items are not unique" % where)
                    break
                seen.append(key)
        if "items" in schema:
            for i, item in enumerate(instance):
                errs += validate(item, schema["items"], root, "%s/%d" % (path, i))
    if isinstance(instance, dict):
        props = schema.get("properties", {})
        for k in schema.get("required", []):
            if k not in instance:
                errs.append("%s: missing required property %r" % (where, k))
        for k, v in instance.items():
            if k in props:
                errs += validate(v, props[k], root, "%s/%s" % (path, k))
            elif "additionalProperties" in schema:
                ap = schema["additionalProperties"]
                if ap is False:
                    errs.append("%s: unexpected property %r" % (where, k))
                elif isinstance(ap, dict):
                    errs += validate(v, ap, root, "%s/%s" % (path, k))
    if "allOf" in schema:
        for sub in schema["allOf"]:
            errs += validate(instance, sub, root, path)
    if "anyOf" in schema:
        if not any(not validate(instance, sub, root, path) for sub in schema["anyOf"]):
            errs.append("%s: matches none of anyOf" % where)
    if "oneOf" in schema:
        n = sum(1 for sub in schema["oneOf"] if not validate(instance, sub, root, path))
        if n != 1:
            errs.append("%s: matches %d of oneOf (exactly one needed)" % (where, n))
    return errs


REPLY_SCHEMA = {"init_ok": "init_ok", "open_ok": "open_ok", "apply_ok": "apply_ok",
                "batch_ok": "batch_ok", "close_ok": "close_ok", "error": "error"}


def validate_reply(reply, schemas):
    """Validate a reply message against the schema named by its type."""
    t = reply.get("type") if isinstance(reply, dict) else None
    if t not in REPLY_SCHEMA:
        return ["reply type %r is not a reply" % (t,)]
    return validate(reply, schemas[REPLY_SCHEMA[t]])
