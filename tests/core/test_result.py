"""The result funnel: content is never empty, state survives failure, errors are typed."""

from __future__ import annotations

from workbench.core.result import DEFAULT_FAILURE_CONTENT, ErrorType, ToolError, failure, to_result


def test_success_keeps_content_and_state() -> None:
    result = to_result(success=True, content="3 results", state={"results": [1, 2, 3]})
    assert result.success and result.content == "3 results" and result.error is None


def test_failure_content_defaults_to_the_error_message() -> None:
    result = to_result(
        success=False,
        error=ToolError(type="NotFound", message="no such file: a.txt"),
        state={"path": "a.txt"},
    )
    assert result.content == "no such file: a.txt"
    assert result.state == {"path": "a.txt"}
    assert result.error is not None and result.error.type == "NotFound"


def test_failure_without_anything_still_has_content_and_a_type() -> None:
    result = to_result(success=False)
    assert result.content == DEFAULT_FAILURE_CONTENT
    assert result.error is not None and result.error.type == ErrorType.TOOL_FAILED


def test_exceptions_and_dicts_become_typed_errors() -> None:
    from_exception = to_result(
        success=False, error=ValueError("bad value"), error_type=ErrorType.TOOL_CRASHED
    )
    assert from_exception.error is not None
    assert (from_exception.error.type, from_exception.error.message) == (
        ErrorType.TOOL_CRASHED,
        "bad value",
    )
    assert from_exception.error.body == {"exception": "ValueError"}
    from_dict = to_result(
        success=False,
        error={"type": "PluginSettingsInvalid", "message": "", "body": {"provider": "searxng"}},
    )
    assert from_dict.error is not None and from_dict.error.message == DEFAULT_FAILURE_CONTENT
    assert from_dict.content == DEFAULT_FAILURE_CONTENT


def test_empty_success_content_is_not_empty() -> None:
    assert to_result(success=True, content="").content


def test_failure_shorthand() -> None:
    result = failure(
        ErrorType.TIMEOUT, "timed out after 5 s while waiting for the result", state={"elapsed": 5}
    )
    assert (
        not result.success
        and result.content.startswith("timed out")
        and result.state == {"elapsed": 5}
    )


def test_lone_surrogates_become_replacement_characters_not_a_validation_error() -> None:
    # A Python string may hold them (a tool's bug, a server's "\ud800"); no result may fail.
    result = to_result(success=True, content="a \ud800 b \udfff")
    assert result.content == "a \ufffd b \ufffd"
    failed = failure("Broken", "said \udc00")
    assert failed.content == "said \ufffd"
    assert failed.error is not None and failed.error.message == "said \ufffd"
