agreement|arrest|nil
arrest|nil|obj
was|nil|mod
judge|general|mod
generals|NIL|pcomp-n
agreement|nils|obj
elections|vote|obj
voted|judge|nn
arrested|new york|nil
children|nil|NIL
Economy| leading space|nil
