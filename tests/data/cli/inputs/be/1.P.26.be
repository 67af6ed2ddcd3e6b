agreement|geese|mod
geese|NIL|pcomp-n
general|is|pcomp-n
is|the big courts|nn
vote|children|mod
elections|elections|pcomp-n
