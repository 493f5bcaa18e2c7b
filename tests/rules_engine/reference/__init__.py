"""Independent reference implementations, written from the rule texts (the seeds in
/work/shared/seeds and the options' help), never from rules_engine's code: the differential
tests run both on the same hands and expect the same answers."""
