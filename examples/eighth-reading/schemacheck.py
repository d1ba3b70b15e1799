"""A small JSON Schema (draft 2020-12 subset) validator, standard library only.

It supports exactly the keywords that occur in the cfconform wire schemas:
$ref (local "#/..." pointers), $defs, type, enum, const, properties, required,
additionalProperties (boolean or schema), items, minItems, maxItems, minimum,
minLength, uniqueItems, pattern, anyOf, oneOf.  Annotation keywords
(title, description, default, examples, $id, $schema) are ignored.
"""
import json
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA_DIR = os.path.join(HERE, "..", "..", "docs", "schemas")

_cache = {}


def load(name):
    """Load schemas/<name>.json (name without extension)."""
    if name not in _cache:
        with open(os.path.join(SCHEMA_DIR, name + ".json"), encoding="utf-8") as fh:
            _cache[name] = json.load(fh)
    return _cache[name]


def _is_type(value, t):
    if t == "object":
        return isinstance(value, dict)
    if t == "array":
        return isinstance(value, list)
    if t == "string":
        return isinstance(value, str)
    if t == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if t == "number":
        return (isinstance(value, (int, float)) and not isinstance(value, bool)
                and value == value and value not in (float("inf"), float("-inf")))
    if t == "boolean":
        return isinstance(value, bool)
    if t == "null":
        return value is None
    raise ValueError("unknown type %r" % t)


def _json_equal(a, b):
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return a == b


def _resolve(root, ref):
    if not ref.startswith("#/"):
        raise ValueError("only local $ref supported: %r" % ref)
    node = root
    for part in ref[2:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        node = node[part]
    return node


def errors(value, schema, root=None, path=""):
    """Return a list of (path, message) for every violation found."""
    if root is None:
        root = schema
    out = []
    if schema is True:
        return out
    if schema is False:
        return [(path or "/", "no value is allowed here")]
    if "$ref" in schema:
        out += errors(value, _resolve(root, schema["$ref"]), root, path)
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_is_type(value, t) for t in types):
            out.append((path or "/", "expected type %s, got %r" % ("|".join(types), value)))
            return out
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        out.append((path or "/", "NaN/Infinity is not JSON"))
    if "const" in schema and not _json_equal(value, schema["const"]):
        out.append((path or "/", "expected const %r" % (schema["const"],)))
    if "enum" in schema and not any(_json_equal(value, e) for e in schema["enum"]):
        out.append((path or "/", "%r not in enum %r" % (value, schema["enum"])))
    if isinstance(value, dict):
        props = schema.get("properties", {})
        for req in schema.get("required", []):
            if req not in value:
                out.append((path + "/" + req, "required field missing"))
        for k, v in value.items():
            if k in props:
                out += errors(v, props[k], root, path + "/" + k)
            else:
                ap = schema.get("additionalProperties", True)
                if ap is False:
                    out.append((path + "/" + k, "unknown field"))
                elif isinstance(ap, dict):
                    out += errors(v, ap, root, path + "/" + k)
    if isinstance(value, list):
        if "items" in schema:
            for i, v in enumerate(value):
                out += errors(v, schema["items"], root, "%s/%d" % (path, i))
        if "minItems" in schema and len(value) < schema["minItems"]:
            out.append((path or "/", "fewer than %d items" % schema["minItems"]))
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            out.append((path or "/", "more than %d items" % schema["maxItems"]))
        if schema.get("uniqueItems"):
            seen = []
            for v in value:
                key = json.dumps(v, sort_keys=True)
                if key in seen:
                    out.append((path or "/", "items not unique"))
                    break
                seen.append(key)
    if isinstance(value, str):
        if "minLength" in schema and len(value) < schema["minLength"]:
            out.append((path or "/", "shorter than %d" % schema["minLength"]))
        if "pattern" in schema and not re.search(schema["pattern"], value):
            out.append((path or "/", "does not match %r" % schema["pattern"]))
    if _is_type(value, "number") and "minimum" in schema and value < schema["minimum"]:
        out.append((path or "/", "less than minimum %r" % schema["minimum"]))
    if "anyOf" in schema:
        if not any(not errors(value, s, root, path) for s in schema["anyOf"]):
            out.append((path or "/", "matches none of anyOf"))
    if "oneOf" in schema:
        n = sum(1 for s in schema["oneOf"] if not errors(value, s, root, path))
        if n != 1:
            out.append((path or "/", "matches %d of oneOf (need exactly 1)" % n))
    return out


def validate(value, name):
    """Validate value against schemas/<name>.json; return the error list."""
    return errors(value, load(name))


def validate_def(value, name, definition):
    """Validate value against #/$defs/<definition> of schemas/<name>.json."""
    root = load(name)
    return errors(value, root["$defs"][definition], root)
