"""The settings controls as HTML, generated at build time from chunker_py's definitions.

build.py calls ``settings_form()`` and puts the result into index.html, so the controls
are on screen before the Python runtime has loaded, and a new mode or option appears
without touching index.html. Every control has a visible label; a field used only by some
modes carries ``data-modes`` and app/settings.py shows it for those modes only.
Pure Python (no DOM): it runs in build.py, never in the page.
"""

from __future__ import annotations

from html import escape
from typing import Any

from chunker_py import FIELDS, MODES
from chunker_py.config.settings import DEPENDS
from chunker_py.engine.fields import Field

SLIDER_LABEL = "{label} slider"


def _attr(value: object) -> str:
    return escape(str(value), quote=True)


def _wrap(field: Field, inner: str, tag: str = "div", css: str = "field") -> str:
    attrs = [f'class="{css}"', f'data-field="{field.key}"']
    if field.modes is not None:
        attrs.append(f'data-modes="{_attr(" ".join(field.modes))}"')
        if FIELDS["mode"].default not in field.modes and field.key != "chunk_overlap":
            attrs.append("hidden")
    if field.key in DEPENDS:
        other, value = DEPENDS[field.key]
        attrs.append(f'data-depends="{_attr(other)}={_attr(value)}"')
    return f"<{tag} {' '.join(attrs)}>{inner}</{tag}>"


def _help(field: Field) -> tuple[str, str]:
    """The help paragraph and the id to point aria-describedby at."""
    if not field.help:
        return "", ""
    help_id = f"{field.element_id}-help"
    return f'<p id="{help_id}" class="hint">{escape(field.help)}</p>', help_id


def _radios(field: Field) -> str:
    items = []
    for value, label in field.choices.items():
        checked = " checked" if value == field.default else ""
        items.append(
            f'<label class="choice"><input type="radio" name="{field.element_id}" '
            f'id="{field.element_id}-{_attr(value)}" value="{_attr(value)}"{checked}> '
            f"{escape(label)}</label>"
        )
    extra = ""
    if field.key == "mode":
        extra = f'<p id="mode-help" class="hint">{escape(MODES[field.default].help)}</p>'
    return _wrap(field, f"<legend>{escape(field.label)}</legend>{''.join(items)}{extra}",
                 tag="fieldset")  # fmt: skip


def _select(field: Field) -> str:
    help_html, help_id = _help(field)
    options = "".join(
        f'<option value="{_attr(v)}"{" selected" if v == field.default else ""}>'
        f"{escape(label)}</option>"
        for v, label in field.choices.items()
    )
    described = f' aria-describedby="{help_id}"' if help_id else ""
    inner = (
        f'<label for="{field.element_id}">{escape(field.label)}</label>'
        f'<select id="{field.element_id}"{described}>{options}</select>{help_html}'
    )
    if field.key == "tokenizer":  # Load tokenizer.json… (app/tokenizer_file.py)
        inner += (
            '<label class="button" for="tokenizer-file">Load tokenizer.json…</label>'
            '<input id="tokenizer-file" class="visually-hidden" type="file" '
            'accept=".json,application/json">'
            '<p id="tokenizer-file-status" class="hint" role="status"></p>'
        )
    return _wrap(field, inner)


def _number(field: Field, high: Any = None) -> str:
    high = field.high if high is None else high
    slider = ""
    if field.slider:
        slider = (
            f'<input id="{field.element_id}-slider" type="range" min="{field.low}" '
            f'max="{high}" step="1" value="{field.default}" '
            f'aria-label="{_attr(SLIDER_LABEL.format(label=field.label))}">'
        )
    help_html, help_id = _help(field)
    described = f' aria-describedby="{help_id}"' if help_id else ""
    inner = (
        f'<label for="{field.element_id}">{escape(field.label)}</label>'
        f'<input id="{field.element_id}" type="number" inputmode="numeric" min="{field.low}" '
        f'max="{field.high}" step="1" value="{field.text(field.default)}"{described}>'
        f"{slider}{help_html}"
    )
    return _wrap(field, inner, css="number" if field.slider else "field number")


def _checkbox(field: Field) -> str:
    help_html, help_id = _help(field)
    described = f' aria-describedby="{help_id}"' if help_id else ""
    checked = " checked" if field.default else ""
    inner = (
        f'<label class="choice"><input id="{field.element_id}" type="checkbox"{checked}'
        f"{described}> {escape(field.label)}</label>{help_html}"
    )
    return _wrap(field, inner)


def _text(field: Field) -> str:
    help_html, help_id = _help(field)
    ids = [
        i
        for i in (help_id, f"{field.element_id}-summary" if field.key == "separators" else "")
        if i
    ]
    described = f' aria-describedby="{" ".join(ids)}"' if ids else ""
    value = field.text(field.default) if field.default not in ("", ()) else ""
    limit = ' maxlength="400"' if field.key == "source_name" else ""
    control = (
        f'<input id="{field.element_id}" type="text" spellcheck="false" autocomplete="off"'
        f' value="{_attr(value)}"{limit}{described}>'
    )
    if field.key == "separators":
        control = (
            f'<div class="inline">{control}<button id="separators-reset" type="button">'
            "Default separators</button></div>"
        )
    summary = (
        f'<p id="{field.element_id}-summary" class="hint"></p>' if field.key == "separators" else ""
    )
    inner = f'<label for="{field.element_id}">{escape(field.label)}</label>{control}'
    return _wrap(field, inner + help_html + summary)


def _control(field: Field) -> str:
    if field.widget == "radio":
        return _radios(field)
    if field.widget == "select":
        return _select(field)
    if field.widget == "number":
        # the overlap slider ends below the default chunk size (app/settings.py follows it)
        overlap_max = FIELDS["chunk_size"].default - 1
        return _number(field, overlap_max if field.key == "chunk_overlap" else None)
    if field.widget == "checkbox":
        return _checkbox(field)
    return _text(field)


# Collapsible groups after the always-shown ones (mode, sizes, edges): the settings column
# stays short enough to keep every control in reach on a short or narrow screen.
TOKEN_FIELDS = ("size_unit", "tokenizer")
ALWAYS_SHOWN = ("mode", "chunk_size", "chunk_overlap", "edges")


def _group(key: str, title: str, controls: list[str], *, open_: bool) -> str:
    opened = " open" if open_ else ""
    return (
        f'<details class="field group" data-group="{key}"{opened}>'
        f'<summary id="group-{key}">{escape(title)}</summary>' + "\n".join(controls) + "</details>"
    )


def settings_form() -> str:
    """Every control: mode, size and overlap, and edges first; then groups that fold:
    Size unit and tokenizer, the chosen mode's own options, and Advanced (closed)."""
    main, tokens, options, advanced = [], [], [], []
    numbers = []
    for field in FIELDS.values():
        if field.key in ("chunk_size", "chunk_overlap"):
            numbers.append(_control(field))
            continue
        if field.group == "advanced":
            advanced.append(_control(field))
        elif field.key in TOKEN_FIELDS:
            tokens.append(_control(field))
        elif field.key in ALWAYS_SHOWN:
            main.append(_control(field))
        else:
            options.append(_control(field))  # used by some modes only
        if field.key == "mode":
            main.append(
                '<div class="field numbers" data-field="numbers">'
                + "{numbers}"
                + '<p id="numbers-hint" class="hint"><span id="numbers-unit">In code points.'
                '</span> <span id="numbers-overlap">Overlap must be smaller than chunk size.'
                "</span></p></div>"
            )
    html = "\n".join(main).replace("{numbers}", "".join(numbers))
    return "\n".join(
        [
            html,
            _group("tokens", "Size unit and tokenizer", tokens, open_=True),
            _group("options", "Mode options", options, open_=True),
            _group("advanced", "Advanced", advanced, open_=False).replace(
                'class="field group"', 'class="field group advanced"'
            ),
        ]
    )
