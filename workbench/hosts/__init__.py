"""Host profiles: what each agent host hands the model, and what its user sees first.

Pure (no Textual, no Rich): :mod:`.profile` (the data model), :mod:`.registry` (bundled and
project profiles), :mod:`.model_view` (a result's content after a host's model rule),
:mod:`.first_look` (a drawn card folded by a host's user rule), :mod:`.tokens` (offline
token counts, labelled with the tokenizer used).
"""

from __future__ import annotations

from workbench.hosts.first_look import FirstLook, first_look
from workbench.hosts.model_view import Counts, ModelView, model_view
from workbench.hosts.profile import HostProfile, Measure, ModelRule, UserRule
from workbench.hosts.registry import HostSet, bundled_hosts, load_hosts

__all__ = [
    "Counts",
    "FirstLook",
    "HostProfile",
    "HostSet",
    "Measure",
    "ModelRule",
    "ModelView",
    "UserRule",
    "bundled_hosts",
    "first_look",
    "load_hosts",
    "model_view",
]
