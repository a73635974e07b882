"""The app's own messages only carry data: dataclasses, with ``control`` naming the widget."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
import typing

import pytest
from textual.message import Message

import workbench.app.screens as screens
import workbench.app.widgets as widgets
from workbench.app.widgets.messages import WidgetMessage


def _messages() -> list[type[Message]]:
    found: dict[str, type[Message]] = {}
    for package in (widgets, screens):
        for info in pkgutil.iter_modules(package.__path__, f"{package.__name__}."):
            module = importlib.import_module(info.name)
            for owner in vars(module).values():
                if not inspect.isclass(owner) or owner.__module__ != module.__name__:
                    continue
                for value in vars(owner).values():
                    if inspect.isclass(value) and issubclass(value, Message):
                        found[value.__qualname__] = value
    return list(found.values())


MESSAGES = _messages()


def test_the_app_has_messages_to_check() -> None:
    assert len(MESSAGES) >= 20


@pytest.mark.parametrize("message", MESSAGES, ids=lambda message: message.__qualname__)
def test_a_message_with_data_is_a_dataclass(message: type[Message]) -> None:
    # A hand-written __init__ is a dataclass waiting to happen; only field-less
    # messages (a bare notification) may rely on Message's own.
    assert dataclasses.is_dataclass(message) or "__init__" not in vars(message)


@pytest.mark.parametrize(
    "message",
    [message for message in MESSAGES if issubclass(message, WidgetMessage)],
    ids=lambda message: message.__qualname__,
)
def test_control_is_the_widget_that_posted(message: type[Message]) -> None:
    owner_name = message.__qualname__.split(".")[0]
    (declared,) = typing.get_args(message.__orig_bases__[0])  # type: ignore[attr-defined]
    assert declared.__forward_arg__ == owner_name
    widget = object()
    fields = dataclasses.fields(message)  # type: ignore[arg-type]
    values = {field.name: widget if index == 0 else None for index, field in enumerate(fields)}
    assert message(**values).control is widget
