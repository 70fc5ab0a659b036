"""JSON Schemas (draft 2020-12) of what ``--json`` prints, one per command, and of
our JSON tree files: the documented shapes, shipped with the package.

>>> sorted(SCHEMAS)[:3]
['bound', 'bound-total', 'convert']
>>> schema("bound-total")["properties"]["measure"]
{'const': 'total'}

Validate with any JSON Schema library, e.g. ``jsonschema``::

    jsonschema.Draft202012Validator(schema("verify")).validate(json.loads(output))
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

__all__ = ["SCHEMAS", "schema", "schema_text"]

#: each schema's name, and the output it describes
SCHEMAS = {
    "verify": "verify --json (one file or several)",
    "show-secret": "show FILE --secret CODE --json",
    "stats": "stats --json",
    "generate": "generate --json",
    "bound": "bound --json",
    "bound-total": "bound --total --json",
    "simulate": "simulate --json",
    "simulate-adversary": "simulate --adversary --json",
    "improve": "improve --json",
    "convert": "convert -o FILE --json",
    "format": "format -o FILE --json",
    "tree": "a JSON tree file (-o FILE.json)",
}


def schema_text(name: str) -> str:
    """The schema ``name`` (one of :data:`SCHEMAS`) as shipped: JSON text."""
    if name not in SCHEMAS:
        raise KeyError(f"no schema {name!r}; choose one of {', '.join(SCHEMAS)}")
    return resources.files(__name__).joinpath(f"{name}.schema.json").read_text("utf-8")


def schema(name: str) -> dict[str, Any]:
    """The schema ``name`` (one of :data:`SCHEMAS`), parsed."""
    return json.loads(schema_text(name))
