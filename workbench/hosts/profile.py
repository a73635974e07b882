"""A host profile: how one agent host cuts a result for the model and folds it for a person.

Profiles are data (``profiles/*.yaml`` here, or a project's own); every number carries the
source it was read from, so an author can check it against the host they ship to.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Unit = Literal["characters", "bytes", "lines", "tokens"]
ToolKind = Literal["shell", "mcp"]
"""What the host takes a tool for: its own shell tool, or an MCP (third-party) tool."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class Measure(_Strict):
    """A limit and where the number comes from."""

    unit: Unit
    limit: int = Field(gt=0)
    source: str = Field(min_length=1)

    def describe(self) -> str:
        return f"{self.limit:,} {self.unit}"


class ModelRule(_Strict):
    """What the host does to a result's content before the model reads it."""

    reads: Literal["content", "structured", "both"] = "content"
    """Which part of the result the model gets: the text content, the structured state, both."""
    applies_to: tuple[ToolKind, ...] = ("shell", "mcp")
    """The kinds of tool the caps apply to; other results are handed over whole."""
    caps: tuple[Measure, ...] = ()
    """Whichever cap is passed first cuts; none: the content is handed over whole."""
    warn_at: Measure | None = None
    """Past this the host warns (the content still goes through)."""
    over_cap: Literal["cut", "spill"] = "cut"
    """``cut``: the model gets the kept part; ``spill``: a notice and a short preview only."""
    keep: Literal["head", "tail", "head-tail"] = "head"
    head_share: float = Field(default=0.5, gt=0, lt=1)
    """For ``head-tail``: the share of the budget kept from the start."""
    head_share_source: str | None = None
    preview: Measure | None = None
    """For ``spill``: how much of the start the model still sees."""
    spill: bool = False
    """The full output is saved to a file the model can read later."""
    notice: str = ""
    """Put before the kept text when the content is cut (placeholders: see ``render_text``)."""
    marker: str = ""
    """Put where text was taken out."""
    after: str = ""
    """Put after the kept text when the content is cut."""
    wording_source: str | None = None
    raise_cap: str | None = None
    """How a tool or user raises the cap, when the host lets them."""
    tokenizer_note: str | None = None

    @model_validator(mode="after")
    def _spill_needs_preview(self) -> ModelRule:
        if self.over_cap == "spill" and self.preview is None:
            raise ValueError("over_cap: spill needs a preview (how much the model still sees)")
        return self


class UserRule(_Strict):
    """How the host folds a result before a person expands it."""

    head: int = Field(ge=0)
    """Lines shown from the start."""
    tail: int = Field(ge=0)
    """Lines shown from the end."""
    elision: str = Field(min_length=1)
    """The line standing for what is hidden; ``{hidden}`` is the number of lines."""
    expand: str = Field(min_length=1)
    """The key or gesture that shows the rest."""
    source: str = Field(min_length=1)

    @model_validator(mode="after")
    def _shows_something(self) -> UserRule:
        if self.head + self.tail == 0:
            raise ValueError("head and tail cannot both be 0: the folded card would be empty")
        return self


class HostProfile(_Strict):
    """One host: its name, the version described, and its two rules."""

    name: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    title: str = Field(min_length=1)
    version: str = Field(min_length=1)
    model: ModelRule
    user: UserRule | None = None
    """``None``: the card is shown whole (or how the host folds it is not known)."""
    user_note: str | None = None
