import os

import pytest

SHARED = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared"))


@pytest.fixture
def shared_dir():
    """The read-only ../shared folder (specification, conformance data); skip when absent."""
    if not os.path.isdir(SHARED):
        pytest.skip("../shared is not present")
    return SHARED


# The tests import the source tree, not an installed copy: without a core built in place the
# compiled-vs-Python tests skip.  Say so at the top and the bottom of the run, with the command
# that builds it, so that a green run without them is never mistaken for a full one (issue 12).


def pytest_report_header(config):
    from rouge_full_metric import compiled

    if compiled.AVAILABLE:
        return "rouge_full_metric engine: compiled (%s)" % compiled.core.__file__
    return "rouge_full_metric engine: python: %s" % compiled.unavailable_reason()


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    from rouge_full_metric import compiled

    if compiled.AVAILABLE:
        return
    reason = compiled.unavailable_reason()
    skipped = [r for r in terminalreporter.stats.get("skipped", []) if reason in str(r.longrepr)]
    if skipped:
        terminalreporter.write_sep("!", "%d compiled-core tests skipped: %s" % (len(skipped), reason), yellow=True)
