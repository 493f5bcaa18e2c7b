"""Patterned whist starters on Z_m, found by a seeded annealing search (pure Python).

A *patterned* initial round seats the pair ``{a, −a}`` against the pair ``{b, −b}``: the table
``(a, b, −a, −b)``. Its partner differences are ``±2a`` and ``±2b`` and its opponent
differences are ``±(a + b)`` and ``±(a − b)``, each twice. Write ``[d]`` for the class
``{d, −d}`` of a non-zero d in Z_m (m odd); there are (m − 1)/2 classes.

* **v = 4n + 1, m = v:** 0 sits out; the classes are split into n pairs ``{[a], [b]}``. The
  partner differences ``[2a]`` cover every class once because 2 is a unit, so the round is a
  starter exactly when the classes ``[a + b], [a − b]`` over all pairs are all different.
* **v = 4n, m = v − 1, ∞ = label m:** the ∞ table is ``(∞, b0, 0, −b0)`` (partners ∞–0 and
  b0–(−b0), opponent class ``[b0]`` twice) and the other classes are paired as above; the
  round is a starter when ``[b0]`` and the ``[a ± b]`` are all different.

So the search is over pairings of classes only, with cost = number of repeated classes; it
anneals with pair-exchange moves. Summing squares shows when no patterned starter exists: for
v = 4n + 1 it needs 3 ∤ v and (v − 1)/2 ≢ 1 (mod 3); for v = 4n it needs
``b0² ≡ Σ c²`` (mod m), which fails whenever 3 ∤ m (and for m = 51, 63, 87, 99). Found with
seed 0: v = 40. ``designs.develop`` turns a starter into the rounds and ``designs.verify_whist``
checks them.
"""

from __future__ import annotations

import math
import random

Table = tuple[int, int, int, int]


def search_patterned(
    v: int, *, seed: int = 0, max_moves: int = 2_000_000, temperature: float = 0.6
) -> tuple[Table, ...] | None:
    """A patterned initial round for v players (see module doc), or None within ``max_moves``."""
    if v < 4 or v % 4 not in (0, 1):
        return None
    rng = random.Random(seed)
    one_rot = v % 4 == 0
    m = v - 1 if one_rot else v
    h = (m - 1) // 2
    cls = [min(d, m - d) for d in range(m)]
    items = list(range(1, h + 1))
    rng.shuffle(items)
    b0 = items.pop() if one_rot else 0
    pairs = [[items[2 * k], items[2 * k + 1]] for k in range(len(items) // 2)]
    if not pairs:
        return None
    cnt = [0] * (h + 1)

    def res(a: int, b: int) -> tuple[int, int]:
        return cls[(a + b) % m], cls[(a - b) % m]

    if one_rot:
        cnt[b0] += 1
    for a, b in pairs:
        for c in res(a, b):
            cnt[c] += 1
    cost = sum(max(0, c - 1) for c in cnt[1:])
    n_pairs = len(pairs)

    def change(old: list[int], new: list[int]) -> int:
        d = 0
        for c in old:
            cnt[c] -= 1
            d -= 1 if cnt[c] >= 1 else 0
        for c in new:
            d += 1 if cnt[c] >= 1 else 0
            cnt[c] += 1
        return d

    def undo(old: list[int], new: list[int]) -> None:
        for c in new:
            cnt[c] -= 1
        for c in old:
            cnt[c] += 1

    def accept(d: int) -> bool:
        return d <= 0 or rng.random() < math.exp(-d / temperature)

    for _ in range(max_moves):
        if cost == 0:
            break
        if one_rot and rng.random() < 0.1:
            k, j = rng.randrange(n_pairs), rng.randrange(2)
            old = [b0, *res(*pairs[k])]
            nb0, pairs[k][j] = pairs[k][j], b0
            new = [nb0, *res(*pairs[k])]
            d = change(old, new)
            if accept(d):
                cost += d
                b0 = nb0
            else:
                undo(old, new)
                pairs[k][j] = nb0
            continue
        k, kk = rng.randrange(n_pairs), rng.randrange(n_pairs)
        if k == kk:
            continue
        (a, b), (c, e) = pairs[k], pairs[kk]
        old = [*res(a, b), *res(c, e)]
        p1, p2 = ([a, c], [b, e]) if rng.random() < 0.5 else ([a, e], [b, c])
        new = [*res(*p1), *res(*p2)]
        d = change(old, new)
        if accept(d):
            cost += d
            pairs[k], pairs[kk] = p1, p2
        else:
            undo(old, new)
    if cost:
        return None
    tables: list[Table] = []
    if one_rot:
        tables.append((m, b0, 0, m - b0))
    for a, b in sorted(sorted(pr) for pr in pairs):
        tables.append((a, b, m - a, m - b))
    return tuple(tables)
