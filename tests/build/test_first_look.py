"""The first look's HTML (sitebuild/first_look.py): document text drawn at build time
becomes HTML there, so it must stay text. The page's own first update is run in Node's
Pyodide on a text made of markup; the panels it prints must parse back to that text, with
no element but the page's own."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from chunker_py import Settings, analyse
from sitebuild.bundle import python_bundle
from sitebuild.first_look import PANELS, first_look_template, render_panels
from sitebuild.npm import pyodide_python_version
from sitebuild.site import Site

# Every way out of a text node or an attribute: a closing template, script and event
# handler markup, entities that would decode to markup, quotes, a lone CR.
HOSTILE = (
    '</template><script>alert("x")</script><img src=x onerror="alert(1)">\n\n'
    "&lt;script&gt; &amp; &#60;b&#62; ' \" </textarea></section><!-- -->\r" + "\n\nword " * 30
)


class Parsed(HTMLParser):
    """The start tags, and the text of each records text cell, of parsed HTML."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: set[str] = set()
        self.attributes: list[tuple[str, str | None]] = []
        self.cells: list[str] = []
        self._in_cell = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        self.attributes += attrs
        if tag == "td" and ("class", "text-cell") in attrs:
            self._in_cell = True
            self.cells.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "td":
            self._in_cell = False

    def handle_data(self, data: str) -> None:
        if self._in_cell:
            self.cells[-1] += data


def test_document_text_in_the_first_look_stays_text(site: Site) -> None:
    index = (site.root / "index.html").read_text("utf-8")
    # the page as built, without its first look: what first_look.mjs draws on
    bare = re.sub(r'<template id="first-look".*?</template>', "", index, flags=re.S)
    assert bare != index
    bundle = python_bundle(pyodide_python_version())
    rendered = render_panels(bundle, bare, text=HOSTILE)
    template = first_look_template(rendered)
    parsed = Parsed()
    parsed.feed(template)
    parsed.close()
    assert not parsed.tags & {"script", "img", "textarea", "iframe", "object", "style"}
    assert not [name for name, _value in parsed.attributes if name.startswith("on")]
    # the template is closed once, at its end: nothing in it ended it early
    assert template.count("</template>") == 1 and template.endswith("</template>")
    expected = analyse(HOSTILE, Settings())
    assert expected.count > 1
    # the records' text cells hold each chunk's text exactly
    assert parsed.cells == [chunk.text for chunk in expected.chunks]
    # the chunk map's text is the document's again, the markup as characters
    map_html = str(rendered["panels"]["chunk-map-panel"])  # type: ignore[index]
    assert "&lt;/template&gt;&lt;script&gt;" in map_html
    assert "<script" not in "".join(str(rendered["panels"][p]) for p in PANELS)  # type: ignore[index]
