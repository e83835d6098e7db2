"""Hypothesis profiles.

``make test`` (CI) runs the property tests derandomized: the same examples on every run, so a
red run always means a change broke something, never that a new random draw found an old
corner. Exploring new examples is the soak's job: ``make soak`` sets
``HYPOTHESIS_PROFILE=explore`` (fresh random examples each run, as Hypothesis does by
default); a failure found there is kept in ``.hypothesis/`` and replayed first next time.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
