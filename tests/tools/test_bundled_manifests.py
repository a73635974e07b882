"""The bundled manifests skip the JSON Schema check at start-up; this is where it runs instead."""

from __future__ import annotations

import pytest

from workbench.core.manifest import SCHEMAS_CHECKED, ToolManifest
from workbench.core.schema import check_json_schema
from workbench.tools import bundled_packages
from workbench.tools.agent_packages import agent_packages
from workbench.tools.package import ToolPackage


@pytest.mark.parametrize(
    "package",
    [*bundled_packages(), *agent_packages()],
    ids=lambda package: package.identifier,
)
def test_bundled_manifest_schemas_are_valid_json_schemas(package: ToolPackage) -> None:
    manifest = package.manifest
    for api in manifest.api:
        for schema in (api.parameters, api.output_schema):
            if schema is not None:
                check_json_schema(schema)
    # And it loads the same with the check on as with it skipped.
    checked = ToolManifest.model_validate(manifest.to_json())
    assert checked == ToolManifest.model_validate(manifest.to_json(), context=SCHEMAS_CHECKED)


def test_the_context_skips_only_the_schema_check() -> None:
    data = {
        "identifier": "demo",
        "meta": {"title": "Demo", "emoji": "🧪"},
        "api": [{"name": "run", "parameters": {"type": "strin"}}],
    }
    with pytest.raises(ValueError, match="not a valid JSON Schema"):
        ToolManifest.model_validate(data)
    assert ToolManifest.model_validate(data, context=SCHEMAS_CHECKED).api[0].name == "run"
