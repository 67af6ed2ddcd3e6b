new york|was|nn
vote|children|mod
arrested|NIL|gen
agreement|nil|pcomp-n
judges|Economy|gen
london|generals|obj
data|was|nil
pinochet|goose|obj
vote|london|subj
the big courts|Economy|subj
court|data|pcomp-n
U.S.|NIL|obj
