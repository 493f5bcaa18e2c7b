"""Pairing: pure round builders, one per way of seating a round. Standard library only.

``pairing.rotation`` seats individuals with rotating partners (club nights; complete whist
designs when the player count allows). Each builder takes the entries and what has happened so
far (seatings and results) and returns the next round as plain values; each format of the
``formats`` package calls its builders, and the ``draw`` app is the bridge that reads rows,
calls the format and writes rows. Nothing here touches a database.
"""
