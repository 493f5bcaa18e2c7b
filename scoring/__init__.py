"""Games and hands as entered, their revisions (audit) and the score-entry services (the only
code that writes hands); the standings are the ``standings`` app's.

Vocabulary: a *game* is what one table plays in one round; a *hand* is one deal of that game; a
*revision* is one version of a hand's entered values; exactly one revision of a hand is *live*.
Game totals, seat results and standings snapshots are *derived* rows, rebuilt from live revisions.
"""
