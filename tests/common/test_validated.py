"""common.validated: a director action's valid data read by type; a value of another type is
a mistake in the code (TypeError), never passed on."""

from __future__ import annotations

import pytest

from common import validated


def test_each_reader_gives_its_fields_value() -> None:
    data = {"held": True, "number": 3, "source": "director", "tables": [1, 2], "ids": None}
    assert validated.flag(data, "held") is True
    assert validated.whole(data, "number") == 3
    assert validated.text(data, "source") == "director"
    assert validated.wholes(data, "tables") == [1, 2]
    assert validated.optional_wholes(data, "ids") is None
    assert validated.optional_wholes(data, "tables") == [1, 2]


@pytest.mark.parametrize(("reader", "value"), [
    (validated.flag, 1),
    (validated.flag, "true"),
    (validated.whole, True),
    (validated.whole, "3"),
    (validated.text, 3),
    (validated.wholes, (1, 2)),
    (validated.wholes, [1, "2"]),
    (validated.wholes, [True]),
    (validated.optional_wholes, "1,2"),
])
def test_a_value_of_another_type_is_refused(reader: object, value: object) -> None:
    assert callable(reader)
    with pytest.raises(TypeError, match="'field'"):
        reader({"field": value}, "field")


def test_a_missing_field_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        validated.flag({}, "held")
