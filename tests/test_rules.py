"""The round's rules (poetry.rules) and the store's small rooms: their doctests hold.

The composition rule's table of cases is in tests/test_store.py, beside the store that enforces it.
"""

import doctest

import pytest

import poetry.rules
import poetry.store
import poetry.store.fields
import poetry.store.tokens


@pytest.mark.parametrize("module", [poetry.rules, poetry.store, poetry.store.fields, poetry.store.tokens],
                         ids=lambda m: m.__name__)
def test_doctests_hold(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
