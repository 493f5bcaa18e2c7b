"""Clubs, their members and roles, and players.

A *player* is a person who plays; one player may play in several clubs and may or may not have a
login. A *membership* gives a user a role in one club: owner, director, scorer or member.
"""
