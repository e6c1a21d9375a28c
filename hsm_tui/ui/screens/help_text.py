"""A screen's F1 help as a Markdown file beside its module: prose a GM reads is easier to
edit and review there than inside a Python string, and the package ships it as data.
"""

from __future__ import annotations

from importlib.resources import files


def help_markdown(module_name: str, **values: object) -> str:
    """The help text for the screen module ``module_name`` (pass ``__name__``): the file
    named like the module, ``…screens.encounter_builder`` → ``encounter_builder.md``.
    ``values`` fill its ``{name}`` fields, so a limit the engine sets is said once.
    """
    package, _, module = module_name.rpartition(".")
    text = files(package).joinpath(f"{module}.md").read_text(encoding="utf-8")
    return text.format(**values) if values else text
