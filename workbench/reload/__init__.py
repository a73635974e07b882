"""``workbench dev``: reload a project's tools and fixtures as their files change.

The engine imports no Textual: :class:`~workbench.reload.reloader.ProjectReloader` turns a set
of changed paths into a new project (catalog and registry), and
:func:`~workbench.reload.watcher.reloads` watches the files (watchfiles: inotify, FSEvents,
ReadDirectoryChangesW) and yields one reload per batch of saves. The app only shows what
comes out.
"""
