"""The API's small helpers for tool packages: lazy runtime names and a cut list's text."""

from __future__ import annotations

import pytest

from workbench.api import lazy_names, listing


def test_lazy_names_import_a_name_s_module_on_first_use() -> None:
    getattr_ = lazy_names("workbench.tools.task", {"TaskRuntime": ".runtime"})
    from workbench.tools.task.runtime import TaskRuntime

    assert getattr_("TaskRuntime") is TaskRuntime
    with pytest.raises(AttributeError):
        getattr_("NotThere")


def test_listing_says_how_many_more_only_when_cut() -> None:
    assert listing("2 files match", ["a", "b"], 2) == "2 files match:\na\nb"
    assert listing("5 files match", ["a", "b"], 5) == (
        "5 files match:\na\nb\n… 3 more (showing 2 of 5)"
    )
