"""Reading table pages as the browser does: elements by id, and frames swapped in by id."""

from __future__ import annotations

from html.parser import HTMLParser

VOID = {"area", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


class Elements(HTMLParser):
    """Offsets of every element with an id: id -> (start, end) in the source."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=False)
        self.lines = [0]
        for line in text.splitlines(keepends=True):
            self.lines.append(self.lines[-1] + len(line))
        self.open: list[tuple[str, str | None, int]] = []
        self.spans: dict[str, tuple[int, int]] = {}
        self.top: list[str] = []
        self.feed(text)
        self.close()

    def _offset(self) -> int:
        line, column = self.getpos()
        return self.lines[line - 1] + column

    def handle_starttag(self, tag, attrs):
        ident = dict(attrs).get("id")
        start = self._offset()
        if tag in VOID:
            return
        if ident and not self.open:
            self.top.append(ident)
        self.open.append((tag, ident, start))

    def handle_endtag(self, tag):
        while self.open:
            open_tag, ident, start = self.open.pop()
            if open_tag == tag:
                if ident:
                    end = self._offset() + len(f"</{tag}>")
                    self.spans[ident] = (start, end)
                return


def swap_in(page: str, frame: str) -> str:
    """``page`` after the frame's top-level elements replaced the elements with their ids."""
    incoming = Elements(frame)
    targets = Elements(page).spans
    # Regions never nest in one frame: replace from the end so earlier offsets stay valid.
    for ident in sorted(incoming.top, key=lambda ident: -targets[ident][0]):
        start, end = incoming.spans[ident]
        page = page[: targets[ident][0]] + frame[start:end] + page[targets[ident][1] :]
    return page


def by_id(page: str) -> dict[str, str]:
    """The innermost-first HTML of every element with an id (whitespace-normalised)."""
    elements = Elements(page)
    return {ident: " ".join(page[a:b].split()) for ident, (a, b) in elements.spans.items()}
