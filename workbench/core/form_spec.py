"""A form described by a JSON Schema: which inputs to show, and how typed text becomes values.

Pure logic, so the live form's rules are tested without a terminal. What a form cannot
express well (``anyOf``, ``oneOf``, ``$ref``, ``patternProperties``, tuples...) becomes a raw
JSON field; a schema that is not an object of properties becomes one raw JSON editor.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

from workbench.core.sanitize import clean, safe_json

FieldKind = Literal["string", "integer", "number", "boolean", "enum", "array", "object", "json"]
UNSUPPORTED_KEYS = (
    "anyOf",
    "oneOf",
    "allOf",
    "$ref",
    "not",
    "patternProperties",
    "if",
    "prefixItems",
    "dependentSchemas",
)
PRIMITIVES = ("string", "integer", "number", "boolean")


class Missing:
    """No value was entered (an optional field left empty)."""

    def __repr__(self) -> str:
        return "MISSING"


MISSING = Missing()


@dataclass(frozen=True)
class FieldSpec:
    name: str
    path: tuple[str, ...]
    kind: FieldKind
    required: bool = False
    description: str = ""
    default: Any = MISSING
    enum: tuple[Any, ...] = ()
    enum_titles: tuple[str, ...] = ()
    """What the person reads for each of ``enum`` (``oneOf`` titles); the value is what is sent."""
    item_kind: FieldKind | None = None
    """For arrays of primitives: the items' kind; arrays of anything else are JSON."""
    item_enum: tuple[Any, ...] = ()
    item_enum_titles: tuple[str, ...] = ()
    children: tuple[FieldSpec, ...] = ()
    schema: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @property
    def key(self) -> str:
        """A stable id for widgets: ``address.street``."""
        return ".".join(self.path)

    @property
    def label(self) -> str:
        return f"{self.name}{' *' if self.required else ''}"

    def title_of(self, value: Any, *, item: bool = False) -> str:
        """What the person reads for the option ``value`` (its title, else the value)."""
        options, titles = (
            (self.item_enum, self.item_enum_titles)
            if item
            else (
                self.enum,
                self.enum_titles,
            )
        )
        for option, title in zip(options, titles, strict=False):
            if option == value and type(option) is type(value):
                return title
        return str(value)


@dataclass(frozen=True)
class FormSpec:
    fields: tuple[FieldSpec, ...]
    raw_only: bool = False
    """The schema is not an object of properties: edit the arguments as JSON."""
    reason: str = ""


def _type_of(schema: dict[str, Any]) -> str | None:
    kind = schema.get("type")
    if isinstance(kind, list):
        kinds = [item for item in kind if item != "null"]
        return kinds[0] if len(kinds) == 1 else None
    return kind if isinstance(kind, str) else None


def titled_options(schema: Any) -> tuple[tuple[Any, ...], tuple[str, ...]] | None:
    """The options of an enum and their titles: ``enum`` (with the older ``enumNames``), or
    ``oneOf``/``anyOf`` of ``{const, title}`` (the way MCP forms title their choices).

    ``None`` when ``schema`` offers no such list. An option without a title reads as its value.
    """
    if not isinstance(schema, dict):
        return None
    enum = schema.get("enum")
    if isinstance(enum, list) and enum:
        names = schema.get("enumNames")
        if isinstance(names, list) and len(names) == len(enum):
            return tuple(enum), tuple(str(name) for name in names)
        return tuple(enum), tuple(str(option) for option in enum)
    for key in ("oneOf", "anyOf"):
        options = schema.get(key)
        if not isinstance(options, list) or not options:
            continue
        if not all(isinstance(option, dict) and "const" in option for option in options):
            return None
        values = tuple(option["const"] for option in options)
        titles = tuple(str(option.get("title") or option["const"]) for option in options)
        return values, titles
    return None


def _field(name: str, path: tuple[str, ...], schema: Any, required: bool, depth: int) -> FieldSpec:
    if not isinstance(schema, dict):
        return FieldSpec(name, path, "json", required)
    description = str(schema.get("description") or "")
    default = schema.get("default", MISSING)
    common = {
        "required": required,
        "description": description,
        "default": default,
        "schema": schema,
    }
    options = titled_options(schema)
    if options is not None and _type_of(schema) != "array":
        values, titles = options
        return FieldSpec(name, path, "enum", enum=values, enum_titles=titles, **common)
    if any(key in schema for key in UNSUPPORTED_KEYS):
        return FieldSpec(name, path, "json", **common)
    kind = _type_of(schema)
    if kind in PRIMITIVES:
        return FieldSpec(name, path, kind, **common)  # type: ignore[arg-type]
    if kind == "array":
        items = schema.get("items")
        item_options = titled_options(items)
        if item_options is not None:
            values, titles = item_options
            return FieldSpec(
                name,
                path,
                "array",
                item_kind="enum",
                item_enum=values,
                item_enum_titles=titles,
                **common,
            )
        if isinstance(items, dict) and not any(key in items for key in UNSUPPORTED_KEYS):
            item_kind = _type_of(items)
            if item_kind in ("string", "integer", "number"):
                return FieldSpec(name, path, "array", item_kind=item_kind, **common)  # type: ignore[arg-type]
        return FieldSpec(name, path, "json", **common)
    if kind == "object" and isinstance(schema.get("properties"), dict) and depth < 4:
        required_names = set(schema.get("required") or [])
        children = tuple(
            _field(child, (*path, child), sub, child in required_names, depth + 1)
            for child, sub in schema["properties"].items()
        )
        return FieldSpec(name, path, "object", children=children, **common)
    return FieldSpec(name, path, "json", **common)


def build_form(schema: Any) -> FormSpec:
    """The form for an API's ``parameters`` schema."""
    if not isinstance(schema, dict):
        return FormSpec((), raw_only=True, reason="the parameters are not a JSON Schema object")
    if any(key in schema for key in UNSUPPORTED_KEYS):
        return FormSpec(
            (),
            raw_only=True,
            reason="the schema combines alternatives ($ref, anyOf, ...) a form cannot show",
        )
    properties = schema.get("properties")
    if _type_of(schema) not in ("object", None) or not isinstance(properties, dict):
        if _type_of(schema) in ("object", None) and not properties:
            return FormSpec(())
        return FormSpec(
            (), raw_only=True, reason="the arguments are not an object of named properties"
        )
    required = set(schema.get("required") or [])
    return FormSpec(
        tuple(_field(name, (name,), sub, name in required, 0) for name, sub in properties.items())
    )


def _scalar(
    kind: FieldKind | None,
    text: str,
    enum: tuple[Any, ...] = (),
    titles: tuple[str, ...] = (),
) -> tuple[Any, str | None]:
    if kind == "integer":
        try:
            return int(text.strip()), None
        except ValueError:
            return MISSING, f"{text.strip()!r} is not a whole number"
    if kind == "number":
        try:
            number = float(text.strip())
        except ValueError:
            return MISSING, f"{text.strip()!r} is not a number"
        return (
            int(number)
            if number.is_integer() and "." not in text and "e" not in text.lower()
            else number
        ), None
    if kind == "enum":
        for option in enum:
            if str(option) == text.strip():
                return option, None
        # A title is what the person read, so typing it picks its value.
        for option, title in zip(enum, titles, strict=False):
            if title == text.strip():
                return option, None
        shown = titles if len(titles) == len(enum) else tuple(map(str, enum))
        return MISSING, f"{text.strip()!r} is not one of {', '.join(shown)}"
    return text, None


def parse_text(spec: FieldSpec, text: str) -> tuple[Any, str | None]:
    """Typed text of one input -> ``(value, error)``; empty optional input -> ``MISSING``."""
    if spec.kind not in ("string",) and not text.strip():
        return MISSING, ("required" if spec.required else None)
    if spec.kind == "string":
        if not text:
            return MISSING, ("required" if spec.required else None)
        return text, None
    if spec.kind in ("integer", "number", "enum"):
        return _scalar(spec.kind, text, spec.enum, spec.enum_titles)
    if spec.kind == "boolean":
        lowered = text.strip().lower()
        if lowered in ("true", "yes", "1", "on"):
            return True, None
        if lowered in ("false", "no", "0", "off"):
            return False, None
        return MISSING, f"{text.strip()!r} is not true or false"
    if spec.kind == "array" and spec.item_kind is not None:
        values = []
        for part in [item.strip() for item in text.split(",")]:
            if not part:
                continue
            value, error = _scalar(spec.item_kind, part, spec.item_enum, spec.item_enum_titles)
            if error:
                return MISSING, error
            values.append(value)
        return values, None
    try:
        return json.loads(text), None
    except json.JSONDecodeError as error:
        return MISSING, f"not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})"


def to_text(spec: FieldSpec, value: Any) -> str:
    """The input text that shows ``value`` (the inverse of :func:`parse_text`).

    Values come from schemas' defaults and earlier calls: text is cleaned of escapes and JSON
    escapes what a terminal would act on, so the field can be shown as it is.
    """
    if value is MISSING or (value is None and spec.kind != "json"):
        return ""
    if spec.kind == "array" and spec.item_kind is not None and isinstance(value, list):
        return clean(", ".join(spec.title_of(item, item=True) for item in value))
    if spec.kind in ("json", "array", "object"):
        return safe_json(value, indent=2)
    if spec.kind == "boolean":
        return "true" if value else "false"
    return clean(str(value))


def set_path(target: dict[str, Any], path: tuple[str, ...], value: Any) -> None:
    node = target
    for part in path[:-1]:
        node = node.setdefault(part, {})
    node[path[-1]] = value


def get_path(source: Any, path: tuple[str, ...]) -> Any:
    node = source
    for part in path:
        if not isinstance(node, dict) or part not in node:
            return MISSING
        node = node[part]
    return node


def leaf_fields(fields: tuple[FieldSpec, ...]) -> list[FieldSpec]:
    """Every field that has an input of its own (objects are containers)."""
    leaves: list[FieldSpec] = []
    for spec in fields:
        if spec.kind == "object":
            leaves.extend(leaf_fields(spec.children))
        else:
            leaves.append(spec)
    return leaves


def schema_defaults(schema: Any, depth: int = 0) -> dict[str, Any]:
    """The values a form starts with: every property's ``default``, nested objects included.

    What a person would leave untouched in the generated form is sent as its default (a
    headless answer fills the same), and a property with no default stays out.
    """
    if not isinstance(schema, dict) or depth > 4:
        return {}
    properties = schema.get("properties")
    if not isinstance(properties, dict):
        return {}
    values: dict[str, Any] = {}
    for name, sub in properties.items():
        if not isinstance(sub, dict):
            continue
        if "default" in sub:
            values[name] = sub["default"]
        elif _type_of(sub) == "object":
            nested = schema_defaults(sub, depth + 1)
            if nested:
                values[name] = nested
    return values


def with_defaults(schema: Any, values: dict[str, Any]) -> dict[str, Any]:
    """``values`` over the schema's defaults (nested objects merged key by key)."""
    merged = schema_defaults(schema)
    for name, value in values.items():
        current = merged.get(name)
        if isinstance(value, dict) and isinstance(current, dict):
            sub = schema.get("properties", {}).get(name, {}) if isinstance(schema, dict) else {}
            merged[name] = with_defaults(sub, value)
        else:
            merged[name] = value
    return merged
