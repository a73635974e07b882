"""A task store in SQLite (a file in the workspace, or ``:memory:`` for tests)."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import sqlite3

STATUSES = ("todo", "running", "paused", "completed", "failed", "cancelled")
SETTABLE_STATUSES = ("todo", "paused", "completed", "failed", "cancelled")
PRIORITIES = {0: "none", 1: "urgent", 2: "high", 3: "normal", 4: "low"}

SCHEMA = """
CREATE TABLE IF NOT EXISTS tasks (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    instruction TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'todo',
    priority INTEGER NOT NULL DEFAULT 0,
    parent INTEGER REFERENCES tasks(id),
    command TEXT,
    error TEXT,
    exit_code INTEGER
);
CREATE TABLE IF NOT EXISTS dependencies (
    task INTEGER NOT NULL REFERENCES tasks(id),
    depends_on INTEGER NOT NULL REFERENCES tasks(id),
    PRIMARY KEY (task, depends_on)
);
"""


class TaskError(Exception):
    def __init__(self, error_type: str, message: str) -> None:
        super().__init__(message)
        self.error_type = error_type
        self.message = message


def identifier_of(task_id: int) -> str:
    return f"TASK-{task_id}"


def parse_identifier(identifier: str) -> int:
    text = str(identifier).strip().upper()
    if text.startswith("TASK-") and text[5:].isdigit():
        return int(text[5:])
    if text.isdigit():
        return int(text)
    raise TaskError("InvalidIdentifier", f"{identifier!r} is not a task identifier (like TASK-3)")


@dataclass(frozen=True)
class Task:
    id: int
    name: str
    instruction: str
    status: str
    priority: int
    parent: int | None
    command: str | None
    error: str | None
    exit_code: int | None
    depends_on: tuple[int, ...] = ()

    @property
    def identifier(self) -> str:
        return identifier_of(self.id)

    def to_state(self) -> dict[str, Any]:
        state: dict[str, Any] = {
            "identifier": self.identifier,
            "name": self.name,
            "status": self.status,
            "priority": self.priority,
        }
        if self.parent is not None:
            state["parent"] = identifier_of(self.parent)
        if self.depends_on:
            state["dependsOn"] = [identifier_of(item) for item in self.depends_on]
        if self.command:
            state["command"] = self.command
        if self.error:
            state["error"] = self.error
        return state


class TaskStore:
    """Thread-safe access to the task tables (calls run in worker threads)."""

    def __init__(self, path: Path | str = ":memory:") -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        self._opening = threading.Lock()
        self._connection: sqlite3.Connection | None = None

    @property
    def _db(self) -> sqlite3.Connection:
        """The database, opened (and its file and tables made) at the first task operation.

        Every live session builds this tool's runtime; a `workbench call` on an MCP server
        never touches a task, and must not leave a .workbench/tasks.db in the folder it ran in.
        """
        connection = self._connection
        if connection is None:
            with self._opening:
                if self._connection is None:
                    if self.path != ":memory:":
                        Path(self.path).parent.mkdir(parents=True, exist_ok=True)
                    import sqlite3  # Deferred: listing the tool (its manifest) needs no database.

                    opened = sqlite3.connect(
                        self.path, check_same_thread=False, isolation_level=None
                    )
                    opened.row_factory = sqlite3.Row
                    opened.execute("PRAGMA foreign_keys = ON")
                    opened.executescript(SCHEMA)
                    self._connection = opened
                connection = self._connection
        return connection

    def close(self) -> None:
        with self._lock, self._opening:
            if self._connection is not None:
                self._connection.close()

    def _row(self, row: sqlite3.Row) -> Task:
        deps = tuple(
            item[0]
            for item in self._db.execute(
                "SELECT depends_on FROM dependencies WHERE task = ? ORDER BY depends_on",
                (row["id"],),
            )
        )
        return Task(
            row["id"],
            row["name"],
            row["instruction"],
            row["status"],
            row["priority"],
            row["parent"],
            row["command"],
            row["error"],
            row["exit_code"],
            deps,
        )

    def get(self, identifier: str) -> Task:
        task_id = parse_identifier(identifier)
        with self._lock:
            row = self._db.execute("SELECT * FROM tasks WHERE id = ?", (task_id,)).fetchone()
            if row is None:
                raise TaskError("TaskNotFound", f"there is no {identifier_of(task_id)}")
            return self._row(row)

    def create(
        self,
        name: str,
        instruction: str,
        *,
        priority: int = 0,
        parent: str | None = None,
        command: str | None = None,
        depends_on: list[str] | None = None,
    ) -> Task:
        if not name.strip():
            raise TaskError("InvalidTask", "a task needs a non-empty name")
        if priority not in PRIORITIES:
            raise TaskError("InvalidTask", f"priority must be 0-4, got {priority}")
        parent_id = self.get(parent).id if parent else None
        dep_ids = [self.get(item).id for item in depends_on or []]
        with self._lock:
            self._db.execute("BEGIN")
            try:
                cursor = self._db.execute(
                    "INSERT INTO tasks (name, instruction, priority, parent, command) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (name.strip(), instruction, priority, parent_id, command),
                )
                task_id = int(cursor.lastrowid or 0)
                self._db.executemany(
                    "INSERT INTO dependencies (task, depends_on) VALUES (?, ?)",
                    [(task_id, dep) for dep in dep_ids],
                )
                self._db.execute("COMMIT")
            except Exception:
                self._db.execute("ROLLBACK")
                raise
        return self.get(identifier_of(task_id))

    def list(
        self,
        *,
        statuses: list[str] | None = None,
        parent: str | None = None,
        query: str | None = None,
        limit: int = 50,
    ) -> tuple[list[Task], int]:
        clauses: list[str] = []
        params: list[str | int] = []
        if statuses:
            unknown = [status for status in statuses if status not in STATUSES]
            if unknown:
                raise TaskError(
                    "InvalidStatus", f"unknown status {unknown[0]!r} (one of {', '.join(STATUSES)})"
                )
            clauses.append(f"status IN ({', '.join('?' for _ in statuses)})")
            params.extend(statuses)
        if parent:
            clauses.append("parent = ?")
            params.append(self.get(parent).id)
        if query:
            # Escaped: the text is searched for literally, so ``_`` and ``%`` are no wildcards.
            literal = query.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
            clauses.append("(name LIKE ? ESCAPE '\\' OR instruction LIKE ? ESCAPE '\\')")
            params.extend([f"%{literal}%", f"%{literal}%"])
        where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
        with self._lock:
            total = self._db.execute(f"SELECT COUNT(*) FROM tasks {where}", params).fetchone()[0]
            rows = self._db.execute(
                f"SELECT * FROM tasks {where} ORDER BY CASE priority WHEN 0 THEN 9 "
                "ELSE priority END, id LIMIT ?",
                [*params, limit],
            ).fetchall()
            return [self._row(row) for row in rows], int(total)

    def set_status(
        self,
        identifier: str,
        status: str,
        *,
        error: str | None = None,
        exit_code: int | None = None,
    ) -> tuple[Task, str]:
        task = self.get(identifier)
        if status not in STATUSES:
            raise TaskError(
                "InvalidStatus", f"unknown status {status!r} (one of {', '.join(STATUSES)})"
            )
        with self._lock:
            self._db.execute(
                "UPDATE tasks SET status = ?, error = ?, exit_code = ? WHERE id = ?",
                (status, error, exit_code, task.id),
            )
        return self.get(identifier), task.status
