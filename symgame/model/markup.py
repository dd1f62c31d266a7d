"""Text of names and results for Markdown and notebooks: names from users' files escaped, short displays.

Names of players, actions and games come from users' files; in Markdown (summaries, a notebook's display)
``<script>``, ``[x](javascript:...)`` or a ``|`` inside a table cell would be read as markup. Everything that
puts a name into Markdown goes through :func:`markdown_text`.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:
    from .game import Player

__all__ = ["MarkdownDisplay", "markdown_players", "markdown_text"]

#: The characters CommonMark (and the HTML it passes through) acts on, escaped by a backslash.
MARKDOWN_ACTIVE = frozenset("\\`*_[]<>|&~#!")


def markdown_text(text: str) -> str:
    """``text`` with every character Markdown or HTML would act on backslash-escaped (CommonMark escapes).

    Letters, digits, spaces and the other punctuation pass unchanged.

    Parameters
    ----------
    text : str

    Returns
    -------
    str

    Examples
    --------
    >>> print(markdown_text("[x](javascript:alert(1)) <script> a|b"))
    \\[x\\](javascript:alert(1)) \\<script\\> a\\|b
    >>> markdown_text("Player 1")
    'Player 1'
    """
    return "".join("\\" + ch if ch in MARKDOWN_ACTIVE else ch for ch in text)


def markdown_players(players: Sequence[Player]) -> tuple[Player, ...]:
    """The players with their names and actions through :func:`markdown_text`.

    Parameters
    ----------
    players : sequence of Player

    Returns
    -------
    tuple of Player

    Examples
    --------
    >>> from symgame.model.game import Player
    >>> markdown_players([Player("<b>", ("up", "a|b"))])[0]
    Player(name='\\\\<b\\\\>', actions=('up', 'a\\\\|b'))
    """
    from .game import Player

    return tuple(Player(markdown_text(p.name), tuple(markdown_text(a) for a in p.actions)) for p in players)


class MarkdownDisplay:
    """Mixin of results and games: a notebook (IPython's rich display) shows :meth:`to_markdown`.

    Examples
    --------
    >>> class Note(MarkdownDisplay):
    ...     def to_markdown(self) -> str:
    ...         return "**note**"
    >>> Note()._repr_markdown_()
    '**note**'
    """

    def to_markdown(self) -> str:
        """The object in Markdown, names escaped with :func:`markdown_text`.

        Returns
        -------
        str
        """
        raise NotImplementedError

    def _repr_markdown_(self) -> str:
        return self.to_markdown()
