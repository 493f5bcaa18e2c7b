"""The soak benchmark's parts (``bench/soak.py`` runs them): the room of a progressive day
(``room``), the process sampler (``sampler``, ``procs``), the report's arithmetic (``report``),
the end-of-day checks (``recompute``) and the data script (``data.py``)."""
