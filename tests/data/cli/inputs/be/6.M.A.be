the big courts|arrest|gen
voted|agreement|pcomp-n
election|NIL|gen
is|nil|subj
ruled|generals|NIL
elections|vote|obj
ruling|voted|subj
london|best|nil
the big courts|ruling|subj
better|new_york|nn
general|voted|nil
geese|ruled|pcomp-n
