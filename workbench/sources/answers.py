"""Scripted answers for what a server asks mid-call, for ``workbench call --answers FILE``.

Headless, no one can answer an elicitation or approve a sampling request: each is declined
unless the answers file (JSON or YAML) scripts it, keyed by the request as the call numbers
them (``elicitation-1``, ``sampling-2``) or by kind for any request of that kind:

```yaml
elicitation-1: {action: accept, content: {name: Ada, check: true}}
elicitation: {action: decline}          # any other elicitation
sampling-1: {reply: "4", model: my-model}   # approve with this reply
sampling: {action: reject}
```

Accepted form content is filled with the schema's defaults where the answer leaves a field
out (as the TUI form starts with them; a field with no default stays out), then checked
against the schema the server sent; content that does not match is declined, with the reason
in the printed result.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel, ValidationError, model_validator

from workbench.config import ConfigError, read_config_text
from workbench.core.form_spec import with_defaults
from workbench.core.interventions import (
    ElicitationRequest,
    InputAnswer,
    InputRequest,
    SamplingRequest,
    default_answer,
    form_schema,
)
from workbench.core.problems import Problem, problems_from_validation
from workbench.core.schema import validate_args
from workbench.core.source_map import SourceError, load_with_lines

KEY = re.compile(r"^(elicitation|sampling)(-[1-9][0-9]{0,3})?$")
SCRIPTED_MODEL = "workbench-scripted"
ACTIONS = {"accept": "accept", "approve": "accept", "decline": "decline", "reject": "decline"}


class ScriptedAnswer(BaseModel):
    """One scripted answer. ``approve``/``reject`` are the same as ``accept``/``decline``."""

    # Built at the first --answers file read, not at import (every call imports this).
    model_config = ConfigDict(extra="forbid", defer_build=True)

    action: Literal["accept", "approve", "decline", "reject", "cancel"] | None = None
    """Omitted: ``accept`` when ``content`` or ``reply`` is given, else ``decline``."""
    content: dict[str, Any] | None = None
    """The form's values (elicitation, form mode)."""
    reply: str | None = None
    """The reply sent back as the model's message (sampling)."""
    model: str = Field(default=SCRIPTED_MODEL, min_length=1, max_length=200)

    @model_validator(mode="after")
    def _consistent(self) -> ScriptedAnswer:
        if self.action in ("decline", "reject", "cancel") and (
            self.content is not None or self.reply is not None
        ):
            raise ValueError(f"action {self.action!r} takes no content or reply")
        return self

    @property
    def resolved_action(self) -> Literal["accept", "decline", "cancel"]:
        if self.action is None:
            return "accept" if self.content is not None or self.reply is not None else "decline"
        if self.action == "cancel":
            return "cancel"
        return "accept" if ACTIONS[self.action] == "accept" else "decline"


class AnswersFile(RootModel[dict[str, ScriptedAnswer]]):
    """The file: request key -> answer."""

    @model_validator(mode="after")
    def _keys(self) -> AnswersFile:
        for key in self.root:
            if not KEY.match(key):
                raise ValueError(
                    f"{key!r} is not a request key: use elicitation, sampling, "
                    "elicitation-N or sampling-N (N counts from 1 within the call)"
                )
        return self


class ScriptedAnswers:
    """An input gate answering from a script; what is not scripted is declined."""

    def __init__(
        self, answers: dict[str, ScriptedAnswer] | None = None, *, origin: str = ""
    ) -> None:
        self.answers = dict(answers or {})
        self.origin = origin
        """Where the answers came from (the file name), for the notes it writes."""

    @classmethod
    def load(cls, path: Path) -> ScriptedAnswers:
        """Read an answers file; raises :class:`ConfigError` naming file, line and key."""
        file = str(path)
        text = read_config_text(path)
        try:
            document = load_with_lines(text)
        except SourceError as error:
            raise ConfigError(
                [Problem(file=file, line=error.line, message=error.message, code="syntax")]
            ) from None
        data = document.data if document.data is not None else {}
        if not isinstance(data, dict):
            raise ConfigError(
                [Problem(file=file, line=1, message="expected a mapping of request key -> answer")]
            )
        try:
            parsed = AnswersFile.model_validate(data)
        except ValidationError as error:
            raise ConfigError(problems_from_validation(error, file, document.source)) from None
        return cls(parsed.root, origin=path.name)

    def _find(self, request: InputRequest) -> tuple[str, ScriptedAnswer] | None:
        for key in (request.key, request.kind):
            if key in self.answers:
                return key, self.answers[key]
        return None

    async def __call__(self, request: InputRequest) -> InputAnswer:
        found = self._find(request)
        where = f"--answers {self.origin}" if self.origin else "--answers FILE"
        if found is None:
            return default_answer(
                request,
                note=f"no answer for {request.key} in {where}"
                if self.origin
                else f"headless: script an answer with {where}",
            )
        key, scripted = found
        action = scripted.resolved_action
        note = f"scripted as {key} in {self.origin}" if self.origin else ""
        if action != "accept":
            return InputAnswer(action=action, by="answers-file", note=note, key=request.key)
        if isinstance(request, SamplingRequest):
            if scripted.reply is None:
                return default_answer(
                    request,
                    note=f"{key} in {self.origin} approves but gives no reply",
                    by="answers-file",
                )
            return InputAnswer(
                action="accept",
                reply=scripted.reply,
                model=scripted.model,
                by="answers-file",
                note=note,
                key=request.key,
            )
        return self._elicitation(request, key, scripted, note)

    def _elicitation(
        self, request: ElicitationRequest, key: str, scripted: ScriptedAnswer, note: str
    ) -> InputAnswer:
        if request.mode == "url":
            return InputAnswer(action="accept", by="answers-file", note=note, key=request.key)
        schema = form_schema(request.schema or {})
        # What the answer leaves out is what a person would leave untouched in the form: the
        # schema's default is sent (a field with no default stays out, never `false` or "").
        content = with_defaults(schema, scripted.content or {})
        problems = validate_args(schema, content)
        if problems:
            shown = "; ".join(
                f"{'.'.join(map(str, path)) or '(content)'}: {message}"
                for path, message in problems[:3]
            )
            return default_answer(
                request,
                note=f"{key} in {self.origin} does not match the requested schema ({shown})",
                by="answers-file",
            )
        return InputAnswer(
            action="accept", content=content, by="answers-file", note=note, key=request.key
        )
