"""Events and their structure: sessions of rounds, tables, seats, entries and byes.

An *event* is a club night or a tournament; it has a ruleset (preset + overrides), a *format*
(``formats``: the spec of how the event is run), *entries* (players taking part, and *pairs* in
a fixed-partnership format) and *rounds*. In each round the active entries sit at *tables* on
*seats* (as many as the ruleset's table shape has, clockwise from North: two partnerships, or
each player alone) or sit out with a *bye*. The services here create
events and change their settings, status and entries; rounds are built by the ``draw`` app, the
bridge that reads rows, calls the format's pure builder and writes the round.
"""
