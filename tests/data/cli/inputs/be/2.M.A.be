generals|vote|NIL
courts|elections|gen
geese|nil|mod
is|judge|obj
pinochet|general|pcomp-n
was|the big courts|nil
