"""The glossary itself: LLM-agent terms, each with a definition, aliases and related terms.

A real tool would read these from a file or a service; a tuple keeps the example offline and
its fixtures reproducible.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Term:
    """One entry: the ``term`` as it is written, what it means, and where to look next."""

    term: str
    definition: str
    aliases: tuple[str, ...] = ()
    see_also: tuple[str, ...] = ()

    @property
    def summary(self) -> str:
        """The definition's first sentence: what a search result shows."""
        head, dot, _ = self.definition.partition(". ")
        return head + (dot.strip() or "")


TERMS: tuple[Term, ...] = (
    Term(
        "agent",
        "A program that lets a language model choose actions: it sends the model a goal and "
        "the tools it may use, runs the tool calls the model asks for, and feeds the results "
        "back until the model answers.",
        aliases=("LLM agent",),
        see_also=("tool call", "agent loop"),
    ),
    Term(
        "agent loop",
        "The cycle an agent repeats: ask the model, run the tool calls it returns, append "
        "their results to the conversation, and ask again. It ends when the model answers "
        "without calling a tool, or when a step or budget limit is reached.",
        see_also=("agent", "tool call"),
    ),
    Term(
        "chain of thought",
        "Intermediate reasoning a model writes before its answer. Asking for it tends to "
        "help on multi-step problems; it is text like any other and may be wrong.",
        aliases=("CoT",),
        see_also=("prompt",),
    ),
    Term(
        "context window",
        "The most tokens a model can read at once: the system prompt, the conversation, tool "
        "definitions and tool results together. What does not fit must be cut, summarised or "
        "left out, and a tool that returns a long result spends the window of every later "
        "turn. Tools therefore cap what they return and say what they left out, so the model "
        "can ask for more instead of guessing. Windows have grown from a few thousand tokens "
        "to hundreds of thousands, but reading a long context costs time and money, and "
        "models attend less reliably to the middle of a long context than to its start and "
        "end. A tool's summary line is often all the model needs.",
        aliases=("context length",),
        see_also=("token", "truncation"),
    ),
    Term(
        "embedding",
        "A vector of numbers that stands for a piece of text, so that texts with similar "
        "meanings get nearby vectors. Used to search by meaning rather than by words.",
        see_also=("retrieval-augmented generation",),
    ),
    Term(
        "function calling",
        "A model's ability to answer with a structured request to call a named function with "
        "JSON arguments, instead of prose. The host runs the function and returns the result.",
        aliases=("tool use",),
        see_also=("tool call", "JSON Schema"),
    ),
    Term(
        "hallucination",
        "A fluent statement by a model that is not supported by its input or by facts. Tool "
        "results that say plainly what was and was not found make it rarer.",
        see_also=("retrieval-augmented generation",),
    ),
    Term(
        "human in the loop",
        "A person who approves, edits or rejects an agent's action before it takes effect, "
        "typically for calls that spend money, send messages or delete data.",
        aliases=("HITL", "approval"),
        see_also=("tool call",),
    ),
    Term(
        "JSON Schema",
        "A vocabulary for describing JSON data: types, required fields, ranges and patterns. "
        "Tool definitions use it to tell the model what arguments an API accepts.",
        see_also=("function calling",),
    ),
    Term(
        "MCP",
        "The Model Context Protocol: a JSON-RPC protocol through which a host connects to "
        "servers that offer tools, resources and prompts, over stdio or HTTP.",
        aliases=("Model Context Protocol",),
        see_also=("tool call",),
    ),
    Term(
        "prompt",
        "The text a model is given to continue: instructions, examples and the conversation "
        "so far.",
        see_also=("system prompt", "chain of thought"),
    ),
    Term(
        "prompt injection",
        "Instructions hidden in data a model reads (a web page, a file, a tool result) that "
        "try to override what its user or developer asked. Treat tool output as untrusted.",
        see_also=("tool call", "human in the loop"),
    ),
    Term(
        "rate limit",
        "A cap on how many requests or tokens a client may send in a period. A tool that "
        "hits one should say when to retry rather than fail silently.",
        see_also=("retry",),
    ),
    Term(
        "retrieval-augmented generation",
        "Answering with the help of documents fetched for the question: search first, put "
        "the best passages in the prompt, then ask the model.",
        aliases=("RAG",),
        see_also=("embedding", "context window"),
    ),
    Term(
        "retry",
        "Sending a failed request again, usually after a growing wait (backoff). Safe only "
        "for requests that do the same thing when repeated.",
        aliases=("backoff",),
        see_also=("rate limit",),
    ),
    Term(
        "streaming",
        "Sending a response in pieces as it is produced, so a person sees the first words, "
        "or a tool call's arguments, before the whole answer is ready.",
        see_also=("token",),
    ),
    Term(
        "system prompt",
        "Instructions given to a model before the conversation, by the developer rather than "
        "the user: its role, its rules and the tools it has.",
        aliases=("system message",),
        see_also=("prompt",),
    ),
    Term(
        "temperature",
        "A setting that makes a model's choice of next token more random (higher) or more "
        "predictable (lower).",
        see_also=("token",),
    ),
    Term(
        "token",
        "The unit a model reads and writes: a word, part of a word or a punctuation mark. "
        "Prices, limits and context windows are counted in tokens.",
        see_also=("tokenizer", "context window"),
    ),
    Term(
        "tokenizer",
        "The component that splits text into tokens and maps them to numbers, and back.",
        see_also=("token",),
    ),
    Term(
        "tool call",
        "One request by a model to run a tool's API with given arguments, and its result: "
        "what the model reads next, and what a person watches as it happens.",
        aliases=("tool invocation",),
        see_also=("function calling", "agent loop"),
    ),
    Term(
        "truncation",
        "Cutting text to fit a limit. Honest truncation says what was cut: showing 20 of "
        "1,204 lines.",
        see_also=("context window",),
    ),
)
"""Every entry, in alphabetical order of ``term`` (case aside)."""
