"""Events and their structure: sessions of rounds, tables, seats, entries and byes.

An *event* is a club night or a tournament; it has a ruleset (preset + overrides), a *format*
that decides how the next round is built, *entries* (players taking part), and *rounds*. In each
round the active entries sit at *tables* on *seats* N, E, S, W (N–S and E–W are partners) or sit
out with a *bye*. Pairing and rotation algorithms live in pure modules (``pairing.rotation``)
that never touch the database; ``tournaments.services`` is the bridge that reads rows, calls them,
and writes rows.
"""
