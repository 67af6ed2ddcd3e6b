"""The example texts of the seed documents (Lin 2004, Lin & Och 2004, MATLAB's rougeEvaluationScore
documentation), shared by the tests that reproduce their numbers."""

S1 = "police killed the gunman"
S2 = "police kill the gunman"
S3 = "the gunman kill police"
S4 = "the gunman police killed"
S5 = "gunman the killed police"

MATLAB1_CAND = "the fast brown fox jumped over the lazy dog"
MATLAB1_REFS = ["the quick brown animal jumped over the lazy dog",
                "the quick brown fox jumped over the lazy dog"]
MATLAB2_CAND = "a simple summary document containing some words"
MATLAB2_REFS = ["a simple document", "another document with some words"]
