"""z3 as symgame uses it: a Ctrl-C during a check reaches Python.

By default z3 installs its own SIGINT handler for the length of every check (its ``ctrl_c`` parameter): the
first Ctrl-C cancels the check, which returns ``unknown`` ("interrupted from keyboard"), and Python never
hears of it. symgame would then carry on with ``unknown`` as if the check had been undecided, and print a
result (measured: a Ctrl-C during the atlas's certificates gave exit status 3 and a report with a family "not
proved"), and pool workers, which ignore Ctrl-C, would have their checks cancelled as well. Every symgame module
imports z3 from here, which turns that handler off once per process: Python's own handler sees the signal,
:class:`symgame.model.isolated.interruptible` asks z3 to stop (``Context.interrupt``), and the interrupt is an
interrupt (``KeyboardInterrupt``, exit status 130 on the command line). Nothing a check decides depends on it.

The parameter is global to the process: z3 code of the caller's own, in the same process, is no longer
cancelled by Ctrl-C either.

Examples
--------
>>> from symgame.model.z3env import z3
>>> z3.get_param("ctrl_c")
'false'
"""
from __future__ import annotations

import z3

__all__ = ["z3"]

z3.set_param("ctrl_c", False)
