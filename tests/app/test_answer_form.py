"""A server's form shows the titles the server gave its choices and sends their values; a
field nobody touched is not answered, and a field with a default starts at it."""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult
from textual.widgets import Input, Select, Switch

from workbench.app.widgets.input_request_bar import InputRequestBar
from workbench.core.interventions import InputAnswer, elicitation_request
from workbench.rendering.screen import screen_text, settle

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "hero": {
            "type": "string",
            "title": "Hero",
            "oneOf": [
                {"const": "hero-1", "title": "Superman"},
                {"const": "hero-2", "title": "Wonder Woman"},
            ],
        },
        "powers": {
            "type": "array",
            "items": {"anyOf": [{"const": "fly", "title": "Flight"}, {"const": "xray"}]},
        },
        "subscribe": {"type": "boolean", "title": "Subscribe"},
        "public": {"type": "boolean", "default": True},
        "city": {"type": "string", "default": "Metropolis"},
    },
    "required": ["hero"],
}


class Harness(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.answers: list[InputAnswer] = []

    def compose(self) -> ComposeResult:
        yield InputRequestBar(elicitation_request("Pick your hero", schema=SCHEMA))

    def on_input_request_bar_answered(self, event: InputRequestBar.Answered) -> None:
        self.answers.append(event.answer)


async def answered(app: Harness, pilot: Any) -> dict[str, Any]:
    app.query_one(InputRequestBar).accept()
    await settle(pilot)
    [answer] = app.answers
    assert answer.action == "accept" and isinstance(answer.content, dict)
    return answer.content


async def test_the_form_shows_titles_and_sends_values_and_leaves_untouched_fields_out() -> None:
    app = Harness()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        text = screen_text(app)
        # A required titled choice starts at its first option, shown by its title.
        assert "Superman" in text and "hero-1" not in text
        # Untouched: the optional boolean without a default is not answered `false`;
        # the defaults are answered as they are shown.
        assert await answered(app, pilot) == {
            "hero": "hero-1",
            "public": True,
            "city": "Metropolis",
        }


async def test_a_picked_title_sends_its_value_and_a_set_switch_is_sent() -> None:
    app = Harness()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        bar = app.query_one(InputRequestBar)
        hero = bar.query(Select).first()
        options = [str(prompt) for prompt, _ in hero._options if _ is not Select.NULL]
        assert options == ["Superman", "Wonder Woman"]
        hero.value = "hero-2"
        subscribe, _public = bar.query(Switch)
        subscribe.value = True
        subscribe.value = False  # Set by the person, even back to off: an answer.
        await settle(pilot)
        assert await answered(app, pilot) == {
            "hero": "hero-2",
            "subscribe": False,
            "public": True,
            "city": "Metropolis",
        }


async def test_a_multi_select_takes_titles_and_sends_values() -> None:
    app = Harness()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        form = app.query_one(InputRequestBar).form
        assert form is not None
        form.fill({"powers": ["fly", "xray"]})
        await settle(pilot)
        assert "Flight, xray" in screen_text(app)
        form.fill({"powers": []})
        powers = form.query(Input).first()
        powers.value = "Flight, xray"
        await settle(pilot)
        content = await answered(app, pilot)
        assert content["powers"] == ["fly", "xray"]
