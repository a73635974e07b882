"""The local-system surfaces, wired per API."""

from __future__ import annotations

from workbench.api import SurfaceSet
from workbench.tools.local_system.surfaces import (
    in_flight,
    inspectors,
    interventions,
    renders,
)
from workbench.tools.local_system.surfaces.portal import portal

SURFACES = SurfaceSet(
    inspectors={
        "listFiles": inspectors.list_files,
        "readFile": inspectors.read_file,
        "writeFile": inspectors.write_file,
        "editFile": inspectors.edit_file,
        "globFiles": inspectors.glob_files,
        "grepContent": inspectors.grep_content,
        "runCommand": inspectors.run_command,
    },
    renders={
        "listFiles": renders.list_files,
        "readFile": renders.read_file,
        "writeFile": renders.write_file,
        "editFile": renders.edit_file,
        "globFiles": renders.glob_files,
        "grepContent": renders.grep_content,
        "runCommand": renders.run_command,
    },
    placeholders={
        "listFiles": in_flight.list_files_placeholder,
        "readFile": in_flight.read_file_placeholder,
        "writeFile": in_flight.write_file_placeholder,
        "editFile": in_flight.edit_file_placeholder,
        "globFiles": in_flight.glob_files_placeholder,
        "grepContent": in_flight.grep_content_placeholder,
        "runCommand": in_flight.run_command_placeholder,
    },
    streamings={
        "runCommand": in_flight.run_command_streaming,
        "writeFile": in_flight.write_file_streaming,
    },
    interventions={
        "writeFile": interventions.write_file,
        "editFile": interventions.edit_file,
        "runCommand": interventions.run_command,
        # The read APIs only ask when a path leaves the workspace.
        "listFiles": interventions.path_scope,
        "readFile": interventions.path_scope,
        "globFiles": interventions.path_scope,
        "grepContent": interventions.path_scope,
    },
    portal=portal,
)
