data|court|NIL
london|was|nn
london| leading space|obj
geese|voted|nil
court|judge|subj
court|geese|gen
Economy|nil|obj
general|general|mod
