import os

import pytest

SHARED = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared"))


@pytest.fixture
def shared_dir():
    """The read-only ../shared folder (specification, conformance data); skip when absent."""
    if not os.path.isdir(SHARED):
        pytest.skip("../shared is not present")
    return SHARED
