the big courts|data|nil
general|courts|subj
is|judge|obj
generals|vote|NIL
